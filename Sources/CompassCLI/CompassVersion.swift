/// The version of `compass`, in one place (`compass --version`).
enum CompassVersion {
    static let current = "0.4.0"
}
