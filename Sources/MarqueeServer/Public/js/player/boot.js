// The first thing the player page runs (an `async` module with two small imports): asks for the
// session and the manifest at once, so that they are being made while the rest of the
// player's modules load; `main.js` reads the answers (`earlySession`).
import { earlySession, pageAssetID } from './session-start.js';

earlySession(pageAssetID(), new URLSearchParams(location.search));
