#!/bin/sh
# Regenerate assets/calibration/serving_accuracy.json (the Accuracy section's serving numbers) from the CLI's
# leave-one-source-out report. Run after any change to the serving model, its shipped parameters, the catalog or
# serving.jsonl; `llmsim-cli accuracy --serving --check-asset` (ctest cli_serving_accuracy_asset) says when it is due.
#   scripts/calibration/make_serving_accuracy.sh [build/native/llmsim-cli]
# Takes about a minute of CPU. Rebuild afterwards: the file is embedded in the engine.
set -eu
cd "$(dirname "$0")/../.."
cli="${1:-build/native/llmsim-cli}"
out=assets/calibration/serving_accuracy.json
"$cli" accuracy --serving assets/calibration/serving.jsonl --json > "$out.tmp"
python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$out.tmp"   # refuse to write a broken file
mv "$out.tmp" "$out"
echo "wrote $out; rebuild to embed it"
