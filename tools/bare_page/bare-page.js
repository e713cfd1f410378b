// Starts the bare page's module the way web/llmsim-page.js starts llmsim's: bare.wasm is fetched and compiled
// (streaming) as soon as this script runs, the module is created at the page's load event and instantiates the
// compiled module; window.bareReady is set after the first frame: the bench's "page ready" for the floor.
(function () {
  var compiling = WebAssembly.compileStreaming(fetch('bare.wasm'));
  window.addEventListener('load', function () {
    createBare({
      canvas: document.getElementById('canvas'),
      instantiateWasm: function (imports, done) {
        compiling.then(function (module) {
          return WebAssembly.instantiate(module, imports).then(function (instance) { done(instance, module); });
        });
        return {};
      },
      bareReady: function () { window.bareReadyMs = performance.now(); window.bareReady = true; }
    });
  });
})();
