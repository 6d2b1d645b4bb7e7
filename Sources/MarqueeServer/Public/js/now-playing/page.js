// Loads the Now playing island on a Marquee page other than the player (the library,
// downloads, Live Activities, devices, account): one script tag, nothing else to wire.
import { NowPlayingIsland } from './island.js';

window.marqueeNowPlaying = new NowPlayingIsland();
