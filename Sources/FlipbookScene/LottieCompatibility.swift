/// Whose drawing of a Lottie file to follow where the players differ.
public enum LottieCompatibility: String, Sendable, CaseIterable {
    /// The format as After Effects means it and lottie-web, ThorVG and rlottie draw it.
    case lottieWeb = "lottie-web"
    /// What lottie-ios's Core Animation rendering engine draws on an iPhone: the features
    /// it leaves out are left out here too (see docs/lottie.md).
    case coreAnimation = "core-animation"
}
