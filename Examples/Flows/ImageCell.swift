import Statecharts

// MARK: - The image cell

/// The states of a list cell that shows a remote image.
public enum ImageCellState: String, Hashable, Sendable, CaseIterable {
    /// The cell, whatever it shows: reuse resets it from any state.
    case cell
    /// Waiting for an image to show.
    case pending
    /// Loading: first the thumbnail, then the full image.
    case loading
    /// Loading the thumbnail.
    case loadingThumbnail
    /// Showing the thumbnail while the full image loads.
    case thumbnail
    /// Showing the full image.
    case full
    /// The image could not be loaded.
    case failed
}

/// What happens to an image cell.
public enum ImageCellEvent: StatechartEvent, Sendable, Equatable {
    /// The cell is given an image to show.
    case configure(url: String)
    /// The thumbnail arrived.
    case thumbnailLoaded(ImagePixels)
    /// The full image arrived.
    case fullLoaded(ImagePixels)
    /// Loading failed.
    case loadFailed
    /// The list reuses the cell for another row.
    case reuse

    /// The kinds of events.
    public enum Kind: String, CaseIterable, Sendable { case configure, thumbnailLoaded, fullLoaded, loadFailed, reuse }

    /// The event's kind.
    public var kind: Kind {
        switch self {
        case .configure: .configure
        case .thumbnailLoaded: .thumbnailLoaded
        case .fullLoaded: .fullLoaded
        case .loadFailed: .loadFailed
        case .reuse: .reuse
        }
    }
}

/// An image, as far as the example cares: where it came from and its size.
public struct ImagePixels: Hashable, Sendable {
    /// The image's address.
    public var url: String
    /// Its width in pixels.
    public var width: Int

    /// An image.
    public init(url: String, width: Int) {
        self.url = url
        self.width = width
    }
}

/// Loads images: the network in an app, a test clock in tests.
public protocol ImageLoader: Sendable {
    /// A small version of the image.
    func thumbnail(of url: String) async throws -> ImagePixels
    /// The whole image.
    func full(of url: String) async throws -> ImagePixels
}

/// What the cell shows, and what it loads with.
public struct ImageCellContext: Sendable {
    /// The loader.
    public let loader: any ImageLoader
    /// The image asked for.
    public var url: String?
    /// The image shown.
    public var shown: ImagePixels?

    /// A context with nothing shown.
    public init(loader: any ImageLoader) { self.loader = loader }
}

/// The image cell: pending, loading (thumbnail first, then the full image), and reset on reuse.
///
/// Each load is an ``Invoke`` of the state that needs it, so reusing the cell exits the state and
/// cancels the load: a late image from the row the cell showed before can never appear.
public func makeImageCellChart() throws -> Statechart<ImageCellState, ImageCellEvent, ImageCellContext> {
    try Statechart<ImageCellState, ImageCellEvent, ImageCellContext>("image-cell", initial: .cell) {
        StateNode(.cell, initial: .pending) {
            StateNode(.pending) {
                OnEntry { scope in
                    scope.context.url = nil
                    scope.context.shown = nil
                }
                On(.configure, to: .loading) { scope in
                    if case .configure(let url) = scope.event { scope.context.url = url }
                }
            }
            StateNode(.loading, initial: .loadingThumbnail) {
                StateNode(.loadingThumbnail) {
                    Invoke("thumbnail") { context in
                        guard let url = context.url else { return .loadFailed }
                        return .thumbnailLoaded(try await context.loader.thumbnail(of: url))
                    } onError: { _ in
                        .loadFailed
                    }
                    On(.thumbnailLoaded, to: .thumbnail) { scope in
                        if case .thumbnailLoaded(let image) = scope.event { scope.context.shown = image }
                    }
                }
                StateNode(.thumbnail) {
                    Invoke("full image") { context in
                        guard let url = context.url else { return .loadFailed }
                        return .fullLoaded(try await context.loader.full(of: url))
                    } onError: { _ in
                        .loadFailed
                    }
                }
                On(.fullLoaded, to: .full) { scope in
                    if case .fullLoaded(let image) = scope.event { scope.context.shown = image }
                }
                On(.loadFailed, to: .failed)
            }
            StateNode(.full)
            StateNode(.failed)
            On(.reuse, to: .pending)
        }
    }
}
