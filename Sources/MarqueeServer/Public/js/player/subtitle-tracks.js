// The item's subtitles as the primary element's text tracks, one per rendition of the
// manifest, all off until the session selects one (`select-subtitles`).

export class SubtitleTracks {
  /** @param {HTMLVideoElement} video @param {Document} [document] */
  constructor(video, document = globalThis.document) {
    this.video = video;
    this.document = document;
    this.tracks = new Map(); // rendition id → TextTrack
  }

  /** Adds a `<track>` for each of the manifest's subtitle renditions, disabled. */
  add(renditions) {
    for (const subtitles of renditions) {
      const element = this.document.createElement('track');
      element.kind = 'subtitles';
      element.label = subtitles.name;
      if (subtitles.language) element.srclang = subtitles.language;
      element.src = subtitles.urls[0];
      element.id = subtitles.id;
      this.video.append(element);
      element.track.mode = 'disabled';
      this.tracks.set(subtitles.id, element.track);
    }
  }

  /** Shows the rendition `id` and hides the others (`null`: none). */
  select(id) {
    for (const [rendition, track] of this.tracks) track.mode = rendition === id ? 'showing' : 'disabled';
  }
}
