// The library header's link to the nearby-devices page, in the page's language.
import { addStrings, pageLanguage, setLanguage, t } from './i18n.js';
import { deviceStrings } from './devices-strings.js';

addStrings(deviceStrings);
setLanguage(pageLanguage());
const link = document.getElementById('devices-link');
if (link) link.textContent = t('nearbyDevices');
