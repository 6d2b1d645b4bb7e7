// Loads the Now playing island on a Marquee page other than the player (the library,
// downloads, Live Activities, devices, account), and the TV screen's "Play on" listener: one
// script tag, nothing else to wire.
import { NowPlayingIsland } from './island.js';
// A browser marked as the TV's screen listens for "Play on TV" on every Marquee page, not only
// the player and /devices: a TV left on the library page plays what a phone sends it.
import '../remote/screen-listener.js';

window.marqueeNowPlaying = new NowPlayingIsland();
