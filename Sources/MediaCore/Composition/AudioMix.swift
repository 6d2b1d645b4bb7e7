/// How loud each audio track of a composition plays on export — the counterpart of
/// `AVMutableAudioMix` with its input parameters: a volume per track, and volume ramps over
/// time ranges (fades, or ducking music under a voice). Tracks without parameters play at
/// full volume. A mix that changes any volume makes the export re-encode.
public struct AudioMix: Sendable, Hashable {
    /// The parameters of the tracks whose volume changes, one per track.
    public var inputParameters: [InputParameters]

    /// A mix with the given parameters (none: every track at full volume).
    public init(inputParameters: [InputParameters] = []) {
        self.inputParameters = inputParameters
    }

    /// The volume of one composition audio track over time.
    public struct InputParameters: Sendable, Hashable {
        /// The composition audio track these parameters apply to.
        public var trackID: Int
        /// The volume outside every ramp, 0…1 (1 is the track as recorded).
        public var volume: Float
        /// The ramps, ordered by start time.
        public private(set) var ramps: [Ramp] = []

        /// Parameters for `trackID` at a constant `volume` (0…1), until ramps are added.
        public init(trackID: Int, volume: Float = 1) {
            self.trackID = trackID
            self.volume = volume
        }

        /// A straight change from `start` to `end` volume across `timeRange`; after the ramp
        /// the track stays at `end` until the next ramp.
        public struct Ramp: Sendable, Hashable {
            /// The volume at the start of `timeRange`, 0…1.
            public var start: Float
            /// The volume at its end, 0…1.
            public var end: Float
            /// When the ramp happens, on the composition's timeline.
            public var timeRange: MediaTimeRange
        }

        /// Like `setVolumeRamp(fromStartVolume:toEndVolume:timeRange:)`.
        public mutating func setVolumeRamp(from start: Float, to end: Float, timeRange: MediaTimeRange) {
            ramps.append(Ramp(start: start, end: end, timeRange: timeRange))
            ramps.sort { $0.timeRange.start < $1.timeRange.start }
        }

        /// The volume at `seconds` on the composition's timeline.
        public func volume(at seconds: Double) -> Float {
            var current = volume
            for ramp in ramps {
                let start = ramp.timeRange.start.seconds
                let end = ramp.timeRange.end.seconds
                if seconds < start { break }
                if seconds >= end {
                    current = ramp.end
                    continue
                }
                let progress = Float((seconds - start) / max(end - start, 1e-9))
                return ramp.start + (ramp.end - ramp.start) * progress
            }
            return current
        }

        /// Whether the track plays as recorded throughout.
        var isUnity: Bool { volume == 1 && ramps.allSatisfy { $0.start == 1 && $0.end == 1 } }
    }

    func parameters(for trackID: Int) -> InputParameters? {
        inputParameters.first { $0.trackID == trackID }
    }

    /// Whether the mix changes how any track sounds.
    var changesVolume: Bool { inputParameters.contains { !$0.isUnity } }
}
