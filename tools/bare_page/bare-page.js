// Starts the bare page's module the way web/llmsim-page.js starts llmsim's (streaming compile of bare.wasm), and
// sets window.bareReady after the first frame: the bench's "page ready" for the floor.
window.addEventListener('load', function () {
  createBare({
    canvas: document.getElementById('canvas'),
    instantiateWasm: function (imports, done) {
      WebAssembly.instantiateStreaming(fetch('bare.wasm'), imports).then(function (r) { done(r.instance, r.module); });
      return {};
    },
    bareReady: function () { window.bareReadyMs = performance.now(); window.bareReady = true; }
  });
});
