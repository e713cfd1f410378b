// The page glue around the wasm module: loading overlay with progress, WebGL2 checks, window.llmsim (JS API).
// Network: llmsim.wasm from the page's own folder, then (once the first frame is on screen) the measured rows and the
// serving accuracy report from its calibration/ folder (relative URLs: any static host, any iframe), and — only when the user asks to look a model up on Hugging Face
// (or opens a link whose model= is a Hub id) — GET requests to the Hub endpoint (<meta name="llmsim-hf-endpoint">,
// default https://huggingface.co) and the file storage it redirects to; the CSP in index.html allows exactly those.
// Nothing is ever uploaded; a token typed for a gated repo is sent as Authorization to the endpoint for that lookup
// only and is kept nowhere (not in the URL, storage or logs).
(function () {
  'use strict';
  var overlay, message, progress;

  // a performance mark ('llmsim:<step>') for the start-up breakdown scripts/page_ready_bench.mjs prints
  function mark(step) { if (window.performance && performance.mark) performance.mark('llmsim:' + step); }

  function showError(text) {
    overlay.className = 'error';
    message.textContent = text;
  }

  function hasWebGL2() {
    try {
      var gl = document.createElement('canvas').getContext('webgl2');
      var lose = gl && gl.getExtension('WEBGL_lose_context');
      if (lose) lose.loseContext();   // only a probe: the page draws into its own canvas's context
      return !!gl;
    } catch (e) { return false; }
  }

  // fetch the wasm with a byte-count progress bar (works from any static host) and compile it while it arrives:
  // the body goes through a counting stream into compileStreaming, re-typed as application/wasm so a host that sends
  // another MIME type still gets streaming compilation; browsers without it take the whole buffer. It starts when
  // this script runs (index.html preloads llmsim.wasm), so the download and the compilation overlap llmsim.js and the
  // page's load event; llmsim.js then only instantiates the compiled module (instantiateWithProgress)
  var compiling = null;
  function compileWasm() {
    var overlayEl = document.getElementById('overlay');
    var bar = document.getElementById('progress'), text = document.getElementById('message');
    mark('compile-start');
    return fetch('llmsim.wasm').then(function (resp) {
      if (!resp.ok) throw new Error('llmsim.wasm: HTTP ' + resp.status);
      var total = +resp.headers.get('Content-Length') || 0, got = 0;
      function count(n) {
        got += n;
        if (total && bar) bar.style.width = Math.min(100, 100 * got / total).toFixed(1) + '%';
      }
      function starting() { if (text && overlayEl && overlayEl.className !== 'error') text.textContent = 'Starting…'; }
      if (resp.body && WebAssembly.compileStreaming && typeof TransformStream === 'function') {
        var counted = resp.body.pipeThrough(new TransformStream({
          transform: function (chunk, ctl) { count(chunk.length); ctl.enqueue(chunk); },
          flush: starting
        }));
        return WebAssembly.compileStreaming(new Response(counted, { headers: { 'Content-Type': 'application/wasm' } }));
      }
      return resp.arrayBuffer().then(function (bytes) {
        count(bytes.byteLength);
        starting();
        return WebAssembly.compile(bytes);
      });
    });
  }
  try { compiling = compileWasm(); } catch (e) { compiling = Promise.reject(e); }
  compiling.then(function () { mark('compiled'); }, function () {});
  compiling.catch(function () {});   // reported by instantiateWithProgress, once llmsim.js asks for the module

  function instantiateWithProgress(imports, done) {
    compiling.then(function (module) {
      return WebAssembly.instantiate(module, imports).then(function (instance) { mark('instantiated'); done(instance, module); });
    }).catch(function (e) {
      showError('The simulator could not be loaded: ' + e.message +
                '. If you opened this file directly from disk, serve the folder over HTTP instead (python3 -m http.server).');
    });
    return {};
  }

  // The evidence the wasm does not carry (core/assets.h): the measured rows and the serving accuracy report, fetched
  // once the first frame is on screen and handed to the engine file by file; the sections that show them say
  // "loading..." until then, or why a file did not come. Resolves when the engine has parsed them all.
  function loadEvidence(Module) {
    var names = JSON.parse(Module.ccall('llmsim_missing_assets', 'string', [], []));
    return Promise.all(names.map(function (name) {
      return fetch(name).then(function (resp) {
        if (!resp.ok) throw new Error(name + ': HTTP ' + resp.status);
        return resp.arrayBuffer();
      }, function (e) {
        throw new Error(name + ': ' + (e && e.message ? e.message : 'network error'));
      }).then(function (buf) {
        var bytes = new Uint8Array(buf);
        var ptr = Module._malloc(Math.max(1, bytes.length));
        Module.HEAPU8.set(bytes, ptr);
        var err = Module.ccall('llmsim_add_asset', 'string', ['string', 'number', 'number'], [name, ptr, bytes.length]);
        Module._free(ptr);
        if (err) throw new Error(err);
      });
    })).then(function () {
      var err = Module.ccall('llmsim_evidence_arrived', 'string', [], []);
      if (err) throw new Error(err);
    }).catch(function (e) {
      Module.ccall('llmsim_evidence_failed', null, ['string'], [e.message]);
      console.warn('llmsim: the measured rows could not be loaded: ' + e.message);
      throw e;
    });
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

  // What this browser reveals about the GPU, for the "Is this your machine?" offer (the match is the engine's,
  // rig/detect.h). WebGPU's adapter info (vendor/architecture/device/description; Chrome gives vendor and
  // architecture only, Safari/Firefox little or nothing), the WebGL unmasked renderer (Safari: "Apple GPU";
  // Firefox: a sanitized representative model), navigator.deviceMemory (capped at 8) and hardwareConcurrency.
  // Nothing leaves the page.
  function readMachine() {
    var out = { webgl: {}, webgpu: {} };
    try {
      var c = document.createElement('canvas');
      var gl = c.getContext('webgl2') || c.getContext('webgl');
      if (gl) {
        var ext = gl.getExtension('WEBGL_debug_renderer_info');
        out.webgl.vendor = String(gl.getParameter(ext ? ext.UNMASKED_VENDOR_WEBGL : gl.VENDOR) || '');
        out.webgl.renderer = String(gl.getParameter(ext ? ext.UNMASKED_RENDERER_WEBGL : gl.RENDERER) || '');
        var lose = gl.getExtension('WEBGL_lose_context');
        if (lose) lose.loseContext();
      }
    } catch (e) { /* no WebGL details */ }
    if (navigator.deviceMemory) out.deviceMemory = navigator.deviceMemory;
    if (navigator.hardwareConcurrency) out.hardwareConcurrency = navigator.hardwareConcurrency;
    var done = Promise.resolve(out);
    if (navigator.gpu && navigator.gpu.requestAdapter) {
      done = navigator.gpu.requestAdapter().then(function (adapter) {
        if (!adapter) return out;
        var fill = function (info) {
          if (info) ['vendor', 'architecture', 'device', 'description'].forEach(function (k) { out.webgpu[k] = String(info[k] || ''); });
          return out;
        };
        if (adapter.info) return fill(adapter.info);
        if (adapter.requestAdapterInfo) return adapter.requestAdapterInfo().then(fill, function () { return out; });
        return out;
      }, function () { return out; });
    }
    return done;
  }

  // [SECTION] Hugging Face lookups: the engine's plan (llmsim_hub_start / llmsim_hub_feed) over fetch
  function hubEndpoint() {
    var m = document.querySelector('meta[name="llmsim-hf-endpoint"]');
    return ((m && m.content) || 'https://huggingface.co').replace(/\/+$/, '');
  }

  // the body, at most max bytes: the reader is cancelled there (a server that ignores Range never sends a whole file)
  function readCapped(resp, max) {
    if (!resp.body) return resp.arrayBuffer().then(function (b) { return { bytes: new Uint8Array(b.slice(0, max)), truncated: b.byteLength > max }; });
    var reader = resp.body.getReader(), chunks = [], got = 0, truncated = false;
    function pump() {
      return reader.read().then(function (r) {
        if (!r.done) {
          var c = r.value;
          if (got + c.length > max) { c = c.subarray(0, max - got); truncated = true; }
          chunks.push(c); got += c.length;
          if (!truncated) return pump();
          reader.cancel().catch(function () {});
        }
        var all = new Uint8Array(got), off = 0;
        chunks.forEach(function (x) { all.set(x, off); off += x.length; });
        return { bytes: all, truncated: truncated };
      });
    }
    return pump();
  }

  var hubRunning = null, hubAbort = null;
  // stop the running lookup: the fetch in flight is aborted and the plan is told (its message says "cancelled")
  function hubCancel() { if (hubAbort) hubAbort.abort(); }
  function hubLookup(Module, id, token) {
    if (hubRunning) return hubRunning;
    var endpoint = hubEndpoint();
    var abort = hubAbort = (typeof AbortController === 'function') ? new AbortController() : null;
    function feed(status, got, headers, netError) {
      var bytes = got ? got.bytes : new Uint8Array(0);
      var ptr = Module._malloc(Math.max(1, bytes.length));
      Module.HEAPU8.set(bytes, ptr);
      var h = function (k) { return (headers && headers.get(k)) || ''; };
      // headers the Hub does not expose cross-origin read as '' (Retry-After: engine/hub/README.md); the plan copes
      var out = Module.ccall('llmsim_hub_feed', 'string',
                             ['number', 'number', 'number', 'number', 'string', 'string', 'string', 'string', 'string'],
                             [status, ptr, bytes.length, got && got.truncated ? 1 : 0, h('Content-Range'), h('Retry-After'),
                              h('X-Error-Code'), netError || '', h('Link')]);
      Module._free(ptr);
      return JSON.parse(out);
    }
    function step(s) {
      Module.ccall('llmsim_request_redraw', null, [], []);
      if (!s.request) return s.done ? { ok: true, message: s.message } : { ok: false, message: s.error, kind: s.kind, retryAfter: s.retry_after_s };
      var rq = s.request, headers = {};
      if (rq.range_bytes > 0) headers.Range = 'bytes=' + rq.range_begin + '-' + (rq.range_begin + rq.range_bytes - 1);
      if (token) headers.Authorization = 'Bearer ' + token;   // the browser drops it on a cross-origin redirect
      if (abort && abort.signal.aborted) return step(JSON.parse(Module.ccall('llmsim_hub_cancel', 'string', [], [])));
      return fetch(endpoint + rq.path, { headers: headers, credentials: 'omit', cache: 'no-store', redirect: 'follow',
                                         referrerPolicy: 'no-referrer', signal: abort ? abort.signal : undefined })
        .then(function (resp) {
          return readCapped(resp, rq.max_body_bytes).then(function (got) { return step(feed(resp.status, got, resp.headers)); });
        }, function (e) {
          if (abort && abort.signal.aborted) return step(JSON.parse(Module.ccall('llmsim_hub_cancel', 'string', [], [])));
          // offline, DNS, CORS, or a CSP-blocked origin: fetch says only "Failed to fetch". A file read is redirected to
          // the Hub's storage: an origin missing from connect-src fails the same way (engine/hub/README.md)
          var storage = rq.path.indexOf('/resolve/') >= 0
            ? ", or the Hub redirected to a storage origin this page's Content-Security-Policy does not allow" : '';
          return step(feed(0, null, null, (e && e.message ? e.message : 'network error') + ' at ' + endpoint + storage));
        });
    }
    hubRunning = Promise.resolve().then(function () {
      return step(JSON.parse(Module.ccall('llmsim_hub_start', 'string', ['string', 'string'], [id, endpoint])));
    }).then(function (r) { hubRunning = null; hubAbort = null; return r; },
            function (e) { hubRunning = null; hubAbort = null; throw e; });
    return hubRunning;
  }

  function makeApi(Module, evidence) {
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
      // the measured rows and the serving accuracy report arrive after the first frame: resolves once results()
      // holds them (results().evidence_loading false), rejects with the reason when a file could not be fetched
      whenEvidenceLoaded: function () { return evidence; },
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
      // contributed runs (JSON Lines of calibration records): shown beside the estimate; throws naming the bad line
      loadContributedRuns: function (text) {
        var err = Module.ccall('llmsim_load_contributed', 'string', ['string'], [String(text)]);
        if (err) throw new Error(err);
        return api.results().contributed;
      },
      _scroll: function () { return JSON.parse(str('llmsim_scroll')); },
      // look a model up on the Hub (explicit action); resolves to {ok, message[, kind, retryAfter]}
      lookupHub: function (id, options) { return hubLookup(Module, id, options && options.token); },
      cancelHub: function () { hubCancel(); },
      _widgetRect: function (name) { return JSON.parse(Module.ccall('llmsim_widget_rect', 'string', ['string'], [name])); },
      _module: Module
    };
    ['predict', 'memory', 'serve', 'serveSearch', 'serveDeploy', 'spec', 'lora', 'train', 'vision', 'audio', 'embed', 'bestModels'].forEach(function (name) {
      var fn = 'llmsim_' + name.replace('serveSearch', 'serve_search').replace('serveDeploy', 'serve_deploy').replace('bestModels', 'best_models');
      api[name] = function (arg) {
        if (!Module['_' + fn]) throw new Error(name + '() is not available in this build');
        var out = Module.ccall(fn, 'string', ['string'], [typeof arg === 'string' ? arg : JSON.stringify(arg)]);
        var parsed = JSON.parse(out);
        // memory(), spec(), lora(), train() and serve() throw on a bad request; predict() returns {id, error}
        // lines, like the CLI; serve() of a request that parses but does not fit returns {ok: false, error, memory}
        if ((name === 'memory' || name === 'spec' || name === 'lora' || name === 'train' || name === 'vision' || name === 'audio' || name === 'embed' || name === 'bestModels') && parsed && parsed.error) throw new Error(parsed.error);
        if ((name === 'serve' || name === 'serveSearch' || name === 'serveDeploy') && parsed && parsed.error && parsed.ok === undefined) throw new Error(parsed.error);
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
    canvas.addEventListener('webglcontextlost', function (e) {
      e.preventDefault();
      overlay.className = 'error';
      showError('The graphics context was lost (GPU reset or too many tabs). Reload the page to continue; your settings are in the link.');
    });
    canvas.addEventListener('contextmenu', function (e) { e.preventDefault(); });
    var fileInput = document.createElement('input');
    fileInput.type = 'file';
    fileInput.accept = '.gguf,.json,.jsonl,application/json';
    fileInput.style.display = 'none';
    document.body.appendChild(fileInput);
    var Module = {
      canvas: canvas,
      instantiateWasm: instantiateWithProgress,
      print: function (t) { console.log(t); },
      printErr: function (t) { console.warn(t); },
      llmsimFatal: function (t) { if (overlay.className !== 'error') showError(t); },   // the first reason stays
      llmsimOpenFile: function () { fileInput.click(); },
      llmsimHubLookup: function (id, token) { hubLookup(Module, id, token); },
      llmsimHubCancel: function () { hubCancel(); },
      llmsimReady: function () {
        // (this runs inside the first frame: the fetch starts in the task after it)
        var evidence = new Promise(function (go) { setTimeout(go, 0); }).then(function () { return loadEvidence(Module); });
        evidence.catch(function () {});   // reported in the sections and by whenEvidenceLoaded()
        window.llmsim = makeApi(Module, evidence);
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
        // Ctrl/Cmd-K opens the model search (ui/a11y.h), not the browser's search bar
        window.addEventListener('keydown', function (e) {
          if ((e.ctrlKey || e.metaKey) && (e.key === 'k' || e.key === 'K')) e.preventDefault();
        }, true);
        document.addEventListener('paste', function (e) {
          var t = e.clipboardData ? e.clipboardData.getData('text/plain') : '';
          Module.ccall('llmsim_paste_text', null, ['string'], [t]);
          e.preventDefault();
        });
        document.dispatchEvent(new CustomEvent('llmsim-ready'));
        // what the browser says of its GPU (a WebGL context of its own, ~0.1 s): in the task after the first frame
        setTimeout(function () {
          readMachine().then(function (info) {
            var err = Module.ccall('llmsim_set_machine_info', 'string', ['string'], [JSON.stringify(info)]);
            if (err) console.warn('llmsim: ' + err);
          });
        }, 0);
      }
    };
    createLlmsim(Module).catch(function (e) { showError('The simulator stopped: ' + (e && e.message ? e.message : e)); });
    // the WebGL2 probe runs while the wasm downloads and compiles (its context costs tens of ms); without WebGL2
    // main() stops at SDL_GL_CreateContext and this message stays on screen
    if (!hasWebGL2()) {
      showError('This page needs WebGL2, which this browser does not provide (or has disabled). ' +
                'Try a current Firefox, Chrome, Edge or Safari, or enable hardware acceleration.');
    }
  };
  window.addEventListener('load', function () { window.startLlmsim(); });
})();
