// The library header's link to the downloads page, in the page's language.
import { addStrings, pageLanguage, setLanguage, t } from './i18n.js';
import { downloadStrings } from './downloads-strings.js';

addStrings(downloadStrings);
setLanguage(pageLanguage());
const link = document.getElementById('downloads-link');
if (link) link.textContent = t('downloads');
