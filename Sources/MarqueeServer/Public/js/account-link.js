// The account link in the library's header, and the viewer's view: a viewer's page hides
// what only the owner may do (adding, editing and deleting media, downloads).
const link = document.getElementById('account-link');
fetch('/api/auth/session', { cache: 'no-store' }).then((r) => (r.ok ? r.json() : null)).then((session) => {
  if (!session) return;
  const role = session.account?.role || 'owner';
  document.body.dataset.role = role;
  if (link) {
    link.hidden = false;
    const ja = (navigator.languages || [navigator.language]).map((l) => l.slice(0, 2)).find((l) => l === 'ja' || l === 'en') === 'ja';
    link.textContent = session.signedIn ? session.account.name : (ja ? 'アカウント' : 'Account');
  }
}).catch(() => {});
