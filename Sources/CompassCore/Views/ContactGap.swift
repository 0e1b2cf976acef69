/// How long a school or coach has gone without contact (the web app's interaction-gap rule).
public enum ContactGap: String, Hashable, Sendable {
    case medium, high
}
