import CompassCLI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

exit(Compass.main(Array(CommandLine.arguments.dropFirst())))
