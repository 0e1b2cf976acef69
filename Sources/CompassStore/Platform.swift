// The platform's C library, imported once for the module (and its clients): glibc on Linux,
// musl in the static Linux SDK, Bionic on Android, Darwin on Apple platforms. Every file of
// the store that makes a POSIX call (open, pread, flock, fsync, poll, inotify, kqueue) gets it
// from here, so a platform is added in one place.
import CompassMachine
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Android)
@_exported import Android
#elseif canImport(Darwin)
@_exported import Darwin
#endif

/// Gives the pages the allocator holds free back to the system: glibc keeps what a process
/// freed for its next allocations, so memory a finished observation released would still
/// count as the process's. Called when the last observation of a store has ended.
func returnFreedMemory() { compass_return_freed_memory() }
