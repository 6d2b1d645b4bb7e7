import CFFmpeg

/// An open libavformat input (AVFormatContext) bound to one cancellation flag.
///
/// Lives and dies on one pool thread. The AVIO interrupt callback polls the flag, so a read
/// blocked on a slow source returns as soon as the owning task is cancelled.
final class FormatInput {
    private(set) var context: UnsafeMutablePointer<AVFormatContext>?
    let source: AssetSource
    let flag: CancellationFlag
    private var io: ResourceIO?
    private var referenceGuard: ReferenceGuard?

    var name: String { source.displayName }
    var formatContext: UnsafeMutablePointer<AVFormatContext> { context! }

    init(source: AssetSource, flag: CancellationFlag, findStreamInfo: Bool = true) throws {
        _ = LibAV.initialized
        self.source = source
        self.flag = flag
        try flag.check()
        guard var context = avformat_alloc_context() else {
            throw MediaError(.open, url: source.displayName, message: "out of memory")
        }
        context.pointee.interrupt_callback = AVIOInterruptCB(
            callback: { opaque in
                Unmanaged<CancellationFlag>.fromOpaque(opaque!).takeUnretainedValue().isCancelled ? 1 : 0
            },
            opaque: Unmanaged.passUnretained(flag).toOpaque())
        if case .loader(let loader) = source {
            do {
                io = try ResourceIO(loader: loader, flag: flag)
            } catch {
                avformat_free_context(context)
                throw error
            }
            context.pointee.pb = io!.context
            context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        var options: OpaquePointer? = nil
        if let (path, allowsReferences) = source.localFile {
            // A local file reads only itself (and, when allowed, files beside it): never other
            // files on the machine, never the network.
            referenceGuard = ReferenceGuard.install(on: context, rootPath: path, allowsReferencesInFolder: allowsReferences)
            av_dict_set(&options, "protocol_whitelist", "file", 0)
        }
        var contextPointer: UnsafeMutablePointer<AVFormatContext>? = context
        av_dict_set(&options, "reconnect", "0", 0)
        let status = avformat_open_input(&contextPointer, source.openString, nil, &options)
        av_dict_free(&options)
        if status < 0 {
            // avformat_open_input frees the context on failure.
            throw failure(.open, "cannot open", status)
        }
        context = contextPointer!
        self.context = context
        if findStreamInfo {
            let infoStatus = avformat_find_stream_info(context, nil)
            if infoStatus < 0 {
                throw failure(.streamInfo, "cannot read stream information", infoStatus)
            }
        }
        // A demuxer may carry on without a resource it was refused (an HLS segment): the file
        // is still not usable as given.
        if referenceGuard?.refused != nil {
            throw failure(.open, "cannot open", -EPERM)
        }
    }

    deinit {
        if context != nil { avformat_close_input(&context) }
    }

    var streams: [UnsafeMutablePointer<AVStream>] {
        guard let context else { return [] }
        return (0..<Int(context.pointee.nb_streams)).compactMap { context.pointee.streams[$0] }
    }

    /// The error for a failed libav* call: `CancellationError` when the flag caused it, the
    /// loader's own error when a custom read failed, a `MediaError` otherwise.
    func failure(_ kind: MediaError.Kind, _ what: String, _ code: Int32) -> any Error {
        if flag.isCancelled { return CancellationError() }
        if let loaderError = io?.lastError { return loaderError }
        if let refused = referenceGuard?.refused {
            let rule = referenceGuard?.allowedFolder == nil ? "only the file itself is read" : "only files in its own folder are read"
            return MediaError(kind, url: name, message: "\(what): it refers to another resource (\(refused)); \(rule)", code: code)
        }
        return LibAV.error(kind, name, what, code)
    }
}
