// The page glue around the wasm module: loading overlay with progress, WebGL2 checks, window.llmsim (JS API).
// No network access beyond fetching llmsim.wasm from the page's own folder; nothing is ever sent anywhere.
(function () {
  'use strict';
  var overlay, message, progress;

  function showError(text) {
    overlay.className = 'error';
    message.textContent = text;
  }

  function hasWebGL2() {
    try { return !!document.createElement('canvas').getContext('webgl2'); } catch (e) { return false; }
  }

  // fetch the wasm with a byte-count progress bar (works from any static host)
  function instantiateWithProgress(imports, done) {
    fetch('llmsim.wasm').then(function (resp) {
      if (!resp.ok) throw new Error('llmsim.wasm: HTTP ' + resp.status);
      var total = +resp.headers.get('Content-Length') || 0;
      if (!resp.body || !total) return resp.arrayBuffer();
      var reader = resp.body.getReader(), chunks = [], got = 0;
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) {
            var all = new Uint8Array(got), off = 0;
            chunks.forEach(function (c) { all.set(c, off); off += c.length; });
            return all.buffer;
          }
          chunks.push(r.value); got += r.value.length;
          progress.style.width = Math.min(100, 100 * got / total).toFixed(1) + '%';
          return pump();
        });
      }
      return pump();
    }).then(function (bytes) {
      message.textContent = 'Starting…';
      return WebAssembly.instantiate(bytes, imports);
    }).then(function (result) {
      done(result.instance, result.module);
    }).catch(function (e) {
      showError('The simulator could not be loaded: ' + e.message +
                '. If you opened this file directly from disk, serve the folder over HTTP instead (python3 -m http.server).');
    });
    return {};
  }

  // read a user-chosen file locally (never uploaded): GGUF → only as much of the header as the reader asks for
  function importFile(Module, file) {
    var want = Math.min(file.size, 4 << 20);
    function attempt() {
      return file.slice(0, want).arrayBuffer().then(function (buf) {
        var bytes = new Uint8Array(buf);
        var ptr = Module._malloc(Math.max(1, bytes.length));
        Module.HEAPU8.set(bytes, ptr);
        var rc = Module.ccall('llmsim_import_file', 'number', ['number', 'number', 'number', 'string'],
                              [ptr, bytes.length, file.size, file.name]);
        Module._free(ptr);
        if (rc === -1) {
          var need = Module.ccall('llmsim_import_need_bytes', 'number', [], []);
          if (need > want && need <= Math.min(file.size, 256 << 20)) { want = need; return attempt(); }
        }
        Module.ccall('llmsim_request_redraw', null, [], []);
        return { ok: rc === 1, message: Module.ccall('llmsim_import_message', 'string', [], []) };
      });
    }
    return attempt();
  }

  function makeApi(Module) {
    var listeners = { change: [] };
    var str = function (name) { return Module.ccall(name, 'string', [], []); };
    var api = {
      version: function () { return str('llmsim_version'); },
      getState: function () { return JSON.parse(str('llmsim_get_state')); },
      setState: function (state) {
        var json = typeof state === 'string' ? state : JSON.stringify(state);
        var err = Module.ccall('llmsim_set_state', 'string', ['string'], [json]);
        if (err) throw new Error(err);
        return api.getState();
      },
      getHash: function () { return str('llmsim_get_hash'); },
      results: function () { return JSON.parse(str('llmsim_results')); },
      stats: function () { return JSON.parse(str('llmsim_stats')); },
      on: function (event, fn) {
        if (!listeners[event]) throw new Error('unknown event ' + event + ' (known: change)');
        listeners[event].push(fn);
        return function off() { listeners[event] = listeners[event].filter(function (f) { return f !== fn; }); };
      },
      _emit: function (event) {
        var state = api.getState();
        (listeners[event] || []).forEach(function (fn) { try { fn(state); } catch (e) { console.error(e); } });
      },
      importConfig: function (text, id) {
        var err = Module.ccall('llmsim_import_config', 'string', ['string', 'string'], [text, id || '']);
        if (err) throw new Error(err);
        return api.getState();
      },
      importFile: function (file) { return importFile(Module, file); },
      _widgetRect: function (name) { return JSON.parse(Module.ccall('llmsim_widget_rect', 'string', ['string'], [name])); },
      _module: Module
    };
    ['predict', 'memory', 'spec', 'lora', 'train'].forEach(function (name) {
      var fn = 'llmsim_' + name;
      api[name] = function (arg) {
        if (!Module['_' + fn]) throw new Error(name + '() is not available in this build');
        var out = Module.ccall(fn, 'string', ['string'], [typeof arg === 'string' ? arg : JSON.stringify(arg)]);
        var parsed = JSON.parse(out);
        // memory(), spec(), lora(), train() throw on a bad request; predict() returns {id, error} lines, like the CLI
        if (name !== 'predict' && parsed && parsed.error) throw new Error(parsed.error);
        return parsed;
      };
    });
    return api;
  }

  window.startLlmsim = function () {
    overlay = document.getElementById('overlay');
    message = document.getElementById('message');
    progress = document.getElementById('progress');
    var canvas = document.getElementById('canvas');
    if (!hasWebGL2()) {
      showError('This page needs WebGL2, which this browser does not provide (or has disabled). ' +
                'Try a current Firefox, Chrome, Edge or Safari, or enable hardware acceleration.');
      return;
    }
    canvas.addEventListener('webglcontextlost', function (e) {
      e.preventDefault();
      overlay.className = 'error';
      showError('The graphics context was lost (GPU reset or too many tabs). Reload the page to continue; your settings are in the link.');
    });
    canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });
    var fileInput = document.createElement('input');
    fileInput.type = 'file';
    fileInput.accept = '.gguf,.json,application/json';
    fileInput.style.display = 'none';
    document.body.appendChild(fileInput);
    var Module = {
      canvas: canvas,
      instantiateWasm: instantiateWithProgress,
      print: function (t) { console.log(t); },
      printErr: function (t) { console.warn(t); },
      llmsimFatal: function (t) { showError(t); },
      llmsimOpenFile: function () { fileInput.click(); },
      llmsimReady: function () {
        window.llmsim = makeApi(Module);
        fileInput.addEventListener('change', function () {
          if (fileInput.files && fileInput.files[0]) importFile(Module, fileInput.files[0]);
          fileInput.value = '';
        });
        window.addEventListener('dragover', function (e) { e.preventDefault(); });
        window.addEventListener('drop', function (e) {
          e.preventDefault();
          if (e.dataTransfer && e.dataTransfer.files && e.dataTransfer.files[0]) importFile(Module, e.dataTransfer.files[0]);
        });
        overlay.className = 'hidden';
        window.addEventListener('hashchange', function () {
          var err = Module.ccall('llmsim_set_hash', 'string', ['string'], [window.location.hash]);
          if (err) console.warn('llmsim: ' + err);
        });
        window.addEventListener('resize', function () { Module.ccall('llmsim_request_redraw', null, [], []); });
        // Ctrl+V: the browser's clipboard is readable only in the paste event; its text goes into the focused text
        // box (e.g. "Your own runs", "Import a model"). It stays in the page.
        document.addEventListener('paste', function (e) {
          var t = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
          Module.ccall('llmsim_paste_text', null, ['string'], [t]);
          e.preventDefault();
        });
        document.dispatchEvent(new CustomEvent('llmsim-ready'));
      }
    };
    createLlmsim(Module).catch(function (e) { showError('The simulator stopped: ' + (e && e.message ? e.message : e)); });
  };
  window.addEventListener('load', function () { window.startLlmsim(); });
})();
