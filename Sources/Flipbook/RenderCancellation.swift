import FlipbookGeometry

/// The process-wide stop request (defined in FlipbookGeometry so that every stage can poll it).
public typealias RenderCancellation = FlipbookGeometry.RenderCancellation
/// Thrown by a render that was asked to stop.
public typealias RenderCancelled = FlipbookGeometry.RenderCancelled
