/**
 * The notes views of the /humans script: the notes home (well-known namespaces plus the ones this
 * browser opened before) and one namespace with its keys and an editor. Spliced into the page's one
 * script (humans-script.ts); defines `notesSection`, `showNotesHome` and `showNotes` in the enclosing
 * scope and uses its helpers (el, link, field, say, clear, the note API calls).
 */
export const HUMANS_NOTES_SCRIPT = String.raw`
  /** The note namespaces a person is likely to want, plus the ones this browser opened before. */
  function notesSection() {
    var section = el('section', null, 'notes-home');
    section.setAttribute('aria-labelledby', 'notes-heading');
    var h = el('h2', 'Notes');
    h.id = 'notes-heading';
    section.appendChild(h);
    var list = el('ul', null, 'namespaces');
    var seen = {};
    NAMESPACES.concat(recentNamespaces().map(function (ns) { return [ns, 'opened here before']; })).forEach(function (n) {
      if (seen[n[0]]) return;
      seen[n[0]] = true;
      var li = el('li');
      li.appendChild(link('#/kv/' + enc(n[0]), n[0]));
      li.appendChild(el('span', ' — ' + n[1], 'meta'));
      list.appendChild(li);
    });
    section.appendChild(list);
    section.appendChild(openForm('Open a namespace', 'ns', 'namespace', '#/kv/'));
    return section;
  }
  function recentNamespaces() {
    try { return JSON.parse(localStorage.getItem('namespaces') || '[]'); } catch (error) { return []; }
  }
  function rememberNamespace(ns) {
    var recent = [ns].concat(recentNamespaces().filter(function (n) { return n !== ns; })).slice(0, 8);
    localStorage.setItem('namespaces', JSON.stringify(recent));
  }

  function showNotesHome() {
    clear();
    main.appendChild(backLink());
    main.appendChild(notesSection());
    say('notes');
  }

  async function showNotes(ns, key) {
    clear();
    main.appendChild(backLink());
    main.appendChild(heading('Notes', ns));
    rememberNamespace(ns);
    var list = el('ul');
    main.appendChild(list);
    try {
      var keys = await listNotes(ns);
      say(keys.length + ' notes in ' + ns);
      keys.forEach(function (k) {
        var li = el('li');
        li.appendChild(link('#/kv/' + enc(ns) + '/' + enc(k), k));
        list.appendChild(li);
      });
    } catch (error) {
      say(error.message, true);
    }
    var form = el('form', null, 'note');
    var keyInput = field(form, 'input', 'key', 'key', true);
    var value = field(form, 'textarea', 'value', 'value', true);
    form.appendChild(el('button', 'Save note'));
    form.addEventListener('submit', async function (e) {
      e.preventDefault();
      try {
        await writeNote(ns, keyInput.value, value.value);
        location.hash = '#/kv/' + enc(ns) + '/' + enc(keyInput.value);
        say('saved');
      } catch (error) {
        say(error.message, true);
      }
    });
    main.appendChild(form);
    if (key) {
      keyInput.value = key;
      try { value.value = await readNote(ns, key); } catch (error) { say(error.message, true); }
    }
  }
`;
