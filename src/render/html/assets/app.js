// Progressive enhancement: the page works without this. With it, searches swap in the server-rendered results
// section without a full reload, and the URL keeps the query and filters so a search can be shared.
(() => {
  const form = document.querySelector('form.search');
  if (!form) return;
  // The filters fold behind one control on a phone; on a wider screen they are open from the start.
  const filters = form.querySelector('details.filters');
  if (filters && window.matchMedia('(min-width: 48rem)').matches) filters.open = true;
  const query = () => {
    const params = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (String(v).trim() !== '') params.set(k, String(v).trim());
    return params.toString();
  };
  let latest = 0;
  const load = async (qs, push) => {
    const ticket = ++latest;
    document.getElementById('results').setAttribute('aria-busy', 'true');
    try {
      const res = await fetch(`/?${qs}`, { headers: { 'X-Partial': 'results' } });
      const html = await res.text();
      if (ticket !== latest) return; // a newer search has been started; its answer wins
      document.getElementById('results').outerHTML = html;
      if (push) history.pushState(null, '', `/?${qs}`);
      // The head's feed link follows the search shown (the results name it).
      const follow = document.querySelector('#results .follow a');
      let feed = document.querySelector('link[rel=alternate][type="application/atom+xml"]');
      if (follow && !feed) {
        feed = Object.assign(document.createElement('link'), { rel: 'alternate', type: 'application/atom+xml' });
        document.head.append(feed);
      }
      if (follow) feed.setAttribute('href', follow.getAttribute('href'));
      const q = new URLSearchParams(qs).get('q');
      document.title = q ? `${q} — Board Records` : 'Board Records — San Francisco Board of Supervisors';
    } catch {
      if (ticket === latest) form.submit();
    }
  };
  form.addEventListener('submit', (event) => {
    if (!form.checkValidity()) return;
    event.preventDefault();
    load(query(), true);
  });
  for (const el of form.querySelectorAll('select, input[type=checkbox]')) {
    el.addEventListener('change', () => {
      if (form.q.value.trim().length >= 2) load(query(), true);
    });
  }
  window.addEventListener('popstate', () => {
    const params = new URLSearchParams(location.search);
    for (const el of form.elements) {
      if (!el.name) continue;
      if (el.type === 'checkbox') el.checked = params.get(el.name) === 'true';
      else el.value = params.get(el.name) ?? (el.name === 'type' ? 'all' : '');
    }
    load(location.search.slice(1), false);
  });
})();
