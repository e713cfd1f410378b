#!/usr/bin/env bash
# Every number the product prints, in one folder, to diff two builds byte for byte (a refactor must not move them):
#   scripts/golden_outputs.sh CLI OUT_DIR     then: diff -r OUT_A OUT_B
# predict on every measured row (three calibration files + serving-style lines), memory --json for every catalog
# model x 4 quants x 2 contexts on 3 devices, fit tables, serve runs per engine, the static site (every model's page).
set -uo pipefail
cli=$1; out=$2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mkdir -p "$out"
for f in llamacpp_speed llamacpp_speed_2025 llamacpp_speed_collected; do
  "$cli" predict "$root/assets/calibration/$f.jsonl" > "$out/predict_$f.jsonl" 2>&1
  "$cli" predict "$root/assets/calibration/$f.jsonl" --explain > "$out/predict_explain_$f.jsonl" 2>&1
done
"$cli" predict "$root/tests/cli/combo_predict.jsonl" > "$out/predict_combo.jsonl" 2>&1
models=$("$cli" catalog --json 2>/dev/null | python3 -c 'import json,sys; d=json.load(sys.stdin); print("\n".join(m if isinstance(m,str) else m["id"] for m in d["models"]))' 2>/dev/null)
[ -n "$models" ] || models=$("$cli" catalog 2>/dev/null | awk '/^models/{f=1;next} /^hardware/{f=0} f && NF {print $1}')
echo "$models" > "$out/models.txt"
while read -r m; do
  [ -n "$m" ] || continue
  s=$(echo "$m" | tr '/:' '__')
  for q in Q4_K_M Q8_0 F16 IQ2_XXS; do
    for ctx in 4096 32768; do
      for hw in rtx-4090 m2-ultra-192 h100-sxm; do
        echo "== $m $q $ctx $hw"; "$cli" memory --model "$m" --quant "$q" --ctx "$ctx" --hardware "$hw" --json 2>&1
      done
    done
  done > "$out/memory_$s.txt"
  "$cli" fit --model "$m" --quant Q4_K_M --ctx 8192 > "$out/fit_$s.txt" 2>&1
done <<< "$models"
{
  for e in vllm sglang llamacpp trtllm lmdeploy; do
    for hw in h100-sxm rtx-4090 a100-sxm-80gb; do
      echo "== $e $hw"; "$cli" serve --engine "$e" --model meta-llama/Llama-3.1-8B-Instruct --hardware "$hw" --concurrency 16 --num-prompts 64 --json 2>&1
    done
  done
  echo "== r1"; "$cli" serve --engine sglang --model deepseek-ai/DeepSeek-R1 --precision fp8 --hardware h200-sxm --tp 8 --concurrency 32 --num-prompts 64 --explain 2>&1
  echo "== 70b"; "$cli" serve --model meta-llama/Llama-3.1-70B-Instruct --hardware h100-sxm --tp 4 --request-rate 4 --num-prompts 100 --dist sharegpt --explain 2>&1
  echo "== sweep"; "$cli" serve --model Qwen/Qwen2.5-7B-Instruct --hardware l40s --sweep 2>&1
} > "$out/serve.txt"
"$cli" recommend --model Qwen/Qwen2.5-7B-Instruct --ctx 32768 --min-decode 40 > "$out/recommend.txt" 2>&1
"$cli" cost --model Qwen/Qwen2.5-72B-Instruct --hardware rtx-4090 --quant Q4_K_M > "$out/cost.txt" 2>&1
"$cli" site --out "$out/site" --base-url https://example.org/llmsim > "$out/site.log" 2>&1
echo "golden outputs in $out: $(find "$out" -type f | wc -l) files"
