// Carries out the commands the session answers with (docs/renderer-protocol.md): play at a
// rate, pause, seek, play a break's ad, resume the primary after it, select renditions, set
// the volume. The page decides none of them; it does what it is told on the element that
// plays now, and tells the other parts through the hub's events.
import { COMMAND, REPORT } from './renderer-vocabulary.js';
import { PLAYER_EVENT } from './player-events.js';
import { nextPresentedFrame } from './interstitial-handoff.js';

/** HTMLMediaElement.HAVE_CURRENT_DATA: the element has the frame at its current time. */
const HAVE_CURRENT_DATA = 2;

export class CommandRunner {
  /**
   * @param {import('./player-events.js').PlayerHub} hub its `media` is the primary's element
   * @param {{interstitial: import('./interstitial-player.js').InterstitialPlayer,
   *          subtitles: import('./subtitle-tracks.js').SubtitleTracks, volume: {apply: Function},
   *          pictureInPicture?: () => Element | null}} parts
   */
  constructor(hub, { interstitial, subtitles, volume, pictureInPicture = () => document.pictureInPictureElement, followsGroup = () => false }) {
    this.hub = hub;
    /** Watching together: the group's timeline moves the primary (group-sync.js), not play/pause/seek. */
    this.followsGroup = followsGroup;
    this.interstitial = interstitial;
    this.subtitles = subtitles;
    this.volume = volume;
    this.pictureInPicture = pictureInPicture;
  }

  async carryOut(command) {
    const video = this.hub.media;
    const interstitial = this.interstitial;
    const primaryTransport = [COMMAND.play, COMMAND.pause, COMMAND.seek].includes(command.command);
    if (primaryTransport && !interstitial.isActive && this.followsGroup()) return;
    switch (command.command) {
      case COMMAND.play:
        try {
          if (interstitial.isActive) {
            await interstitial.play(command.rate);
          } else {
            video.defaultPlaybackRate = command.rate;
            video.playbackRate = command.rate;
            await video.play();
          }
        } catch (error) {
          // The browser's autoplay policy: the session pauses and the page waits for a press.
          if (error.name === 'NotAllowedError') this.hub.report(REPORT.autoplayBlocked);
        }
        break;
      case COMMAND.pause:
        (interstitial.isActive ? interstitial : video).pause();
        break;
      case COMMAND.seek:
        this.hub.pendingSeek = command.time;
        video.currentTime = command.time;
        this.hub.trigger(PLAYER_EVENT.SEEK_COMMANDED);
        break;
      case COMMAND.playInterstitial: {
        video.pause();
        // Picture in picture follows the break: the window shows the ad, not a frozen frame.
        const inPictureInPicture = this.pictureInPicture() === video;
        await interstitial.start(command.interstitial, command.rate);
        if (inPictureInPicture) interstitial.takePictureInPicture();
        break;
      }
      case COMMAND.playInterstitialAsset:
        // The next asset of the playing event's asset list (picture in picture follows inside the player).
        await interstitial.start(command.interstitial, command.rate, command.asset);
        break;
      case COMMAND.resumePrimary:
        await this.resumePrimary(command);
        break;
      case COMMAND.selectAudio:
        this.hub.engine?.selectAudio(command.rendition);
        break;
      case COMMAND.selectSubtitles:
        this.subtitles.select(command.rendition);
        break;
      case COMMAND.setVolume:
        this.volume.apply(command);
        break;
    }
  }

  async resumePrimary(command) {
    const video = this.hub.media;
    const interstitial = this.interstitial;
    if (interstitial.holdsPictureInPicture) {
      await video.requestPictureInPicture().catch((error) => console.warn('picture in picture:', error.message));
    }
    // A break that began where the primary was held resumes on that very frame: no seek,
    // so nothing plays twice.
    if (Math.abs(video.currentTime - command.time) > 0.001) {
      this.hub.pendingSeek = command.time;
      video.currentTime = command.time;
    }
    if (command.rate > 0) {
      video.defaultPlaybackRate = command.rate;
      video.playbackRate = command.rate;
      video.play().catch(() => {});
      // The break stays on screen (and audible) until the primary presents its first frame again;
      // an ad that played to its end has nothing more to show, and a primary paused on the
      // frame it resumes on (moved there during the break) shows it at once.
      const shownAlready = interstitial.hasEnded && !video.seeking && this.hub.pendingSeek === null && video.readyState >= HAVE_CURRENT_DATA;
      if (!shownAlready) await nextPresentedFrame(video);
    }
    interstitial.stop();
    this.hub.trigger(PLAYER_EVENT.PRIMARY_RESUMED);
  }
}
