#!/usr/bin/env python3
"""Generate assets/catalog/models.json from the sourced reference file plus the additions below.

Inputs (read-only), in the reference folder (--ref DIR, default ../shared/reference relative to the repo root):
  models.json                 60 models, each value sourced
  prices/api_prices.json      serverless API prices (rows with provider, source, date, flags)
Every value added or changed here carries its public source (URL or repo@commit:path) in the entry's `sources`
or a `notes` line; the catalog never names the reference folder itself. Values measured for llmsim (the
llama.cpp runs in assets/calibration/) cite the repo file.

Usage: python3 scripts/catalog/build_models.py [--ref DIR] [--out FILE]; then run check_models.py.
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_models  # noqa: E402

LITGPT = "Lightning-AI/litgpt@26857050fe3ff627cd714fe92f5838f51a3d5efa:litgpt/config.py"
MAXTEXT_HF = "AI-Hypercomputer/maxtext@e591f30cbbf217ed67ef71263ec0538239f9c3b8:src/maxtext/checkpoint_conversion/utils/hf_model_configs.py"
MAXTEXT_CFG = "AI-Hypercomputer/maxtext@e591f30cbbf217ed67ef71263ec0538239f9c3b8:src/maxtext/configs/models/"
MLC = "mlc-ai/mlc-llm@79d603f085f50500e9509fa01785ffa7ecfaaa93:python/mlc_llm/model/model_preset.py"
LLAMACPP_ARCH = "ggml-org/llama.cpp@00395eb285c7c6821ff372e3ca41dae9da33c2c7:src/llama-arch.cpp (LLM_ARCH_NAMES)"
LLAMACPP_MODEL = "ggml-org/llama.cpp@a5410f046c01d01330c8a42f13b64a211fedf2c3:src/llama-model.cpp"
CALIB_QSIZES = ("llmsim measurement assets/calibration/llamacpp_quant_sizes.csv (F16 GGUF tensor histogram, llama.cpp "
                "de3ff815ea7d; not published elsewhere)")
LLAMA_MODELS = "meta-llama/llama-models@a9c89c471f793423afd4cc3ca8671d6e56fe64cb:models/"

# ---------------------------------------------------------------------------------------------------------------
# Per reference-model settings: catalog fields the reference file does not carry in the catalog's form.
# arch = llama.cpp architecture name (LLAMACPP_ARCH); family/name = display; license short form.
# ---------------------------------------------------------------------------------------------------------------
QWEN25_YARN = dict(extended_context=131072, rope_scaling="yarn")
QWEN3_YARN = dict(extended_context=131072, rope_scaling="yarn")
L31 = dict(rope_scaling="llama3", extended_context=0)
GEMMA_LIC = "Gemma Terms of Use"

REF = {
    "Qwen/Qwen2.5-0.5B-Instruct": dict(name="Qwen2.5 0.5B Instruct", arch="qwen2", license="Apache-2.0",
                                       tie_embeddings=True, published_params_b=0.49,
                                       pub_src="https://huggingface.co/Qwen/Qwen2.5-0.5B-Instruct (model card: 'Number of Parameters: 0.49B')",
                                       tie_src="tied: llama.cpp GGUF of this model has no output.weight (" + CALIB_QSIZES + ": 290 tensors, 494,032,768 params = tied layout); calibration README says 'tied embeddings'"),
    "Qwen/Qwen2.5-1.5B-Instruct": dict(name="Qwen2.5 1.5B Instruct", arch="qwen2", license="Apache-2.0",
                                       published_params_b=1.54,
                                       pub_src="https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct (model card: 'Number of Parameters: 1.54B')"),
    "Qwen/Qwen2.5-3B-Instruct": dict(name="Qwen2.5 3B Instruct", arch="qwen2", license="Qwen-Research",
                                     published_params_b=3.09,
                                     pub_src="https://huggingface.co/Qwen/Qwen2.5-3B-Instruct (model card: 'Number of Parameters: 3.09B')"),
    "Qwen/Qwen2.5-7B-Instruct": dict(name="Qwen2.5 7B Instruct", arch="qwen2", license="Apache-2.0", **QWEN25_YARN,
                                     published_params_b=7.61,
                                     pub_src="https://huggingface.co/Qwen/Qwen2.5-7B-Instruct (model card: 'Number of Parameters: 7.61B'; reference stated_params '7.61B total, 6.53B non-embedding')"),
    "Qwen/Qwen2.5-14B-Instruct": dict(name="Qwen2.5 14B Instruct", arch="qwen2", license="Apache-2.0", **QWEN25_YARN,
                                      published_params_b=14.7,
                                      pub_src="https://huggingface.co/Qwen/Qwen2.5-14B-Instruct (model card: 'Number of Parameters: 14.7B')"),
    "Qwen/Qwen2.5-32B-Instruct": dict(name="Qwen2.5 32B Instruct", arch="qwen2", license="Apache-2.0", **QWEN25_YARN,
                                      published_params_b=32.5,
                                      pub_src="https://huggingface.co/Qwen/Qwen2.5-32B-Instruct (model card: 'Number of Parameters: 32.5B')"),
    "Qwen/Qwen2.5-72B-Instruct": dict(name="Qwen2.5 72B Instruct", arch="qwen2", license="Qwen", **QWEN25_YARN,
                                      published_params_b=72.7,
                                      pub_src="https://huggingface.co/Qwen/Qwen2.5-72B-Instruct (model card: 'Number of Parameters: 72.7B')"),
    "Qwen/Qwen2.5-Coder-32B-Instruct": dict(name="Qwen2.5 Coder 32B Instruct", arch="qwen2", license="Apache-2.0",
                                            native_context=32768, **QWEN25_YARN, published_params_b=32.5,
                                            pub_src="https://huggingface.co/Qwen/Qwen2.5-Coder-32B-Instruct (model card: 'Number of Parameters: 32.5B')",
                                            extra_notes=["native_context 32768 per litgpt block_size (reference left it null); 131072 with YaRN factor 4 per Qwen docs"]),
    "Qwen/QwQ-32B": dict(name="QwQ 32B", arch="qwen2", license="Apache-2.0", native_context=32768, **QWEN25_YARN,
                         published_params_b=32.5,
                         pub_src="https://huggingface.co/Qwen/QwQ-32B (model card: 'Number of Parameters: 32.5B')",
                         extra_notes=["native_context 32768 = YaRN original_max_position_embeddings (reference left it null); the QwQ card advertises 131,072 with YaRN - UNSURE whether the card treats 131072 as native"]),
    "Qwen/Qwen3-0.6B": dict(name="Qwen3 0.6B", arch="qwen3", license="Apache-2.0", **QWEN3_YARN, published_params_b=0.6,
                            pub_src="https://huggingface.co/Qwen/Qwen3-0.6B (model card: 'Number of Parameters: 0.6B')"),
    "Qwen/Qwen3-1.7B": dict(name="Qwen3 1.7B", arch="qwen3", license="Apache-2.0", **QWEN3_YARN,
                            extra_notes=["card states 'Number of Parameters: 1.7B' (rounded); computed 1.721B is 1.2% above it, so published_params_b is null"]),
    "Qwen/Qwen3-4B": dict(name="Qwen3 4B", arch="qwen3", license="Apache-2.0", **QWEN3_YARN, published_params_b=4.0,
                          pub_src="https://huggingface.co/Qwen/Qwen3-4B (model card: 'Number of Parameters: 4.0B')"),
    "Qwen/Qwen3-8B": dict(name="Qwen3 8B", arch="qwen3", license="Apache-2.0", **QWEN3_YARN, published_params_b=8.2,
                          pub_src="https://huggingface.co/Qwen/Qwen3-8B (model card: 'Number of Parameters: 8.2B')"),
    "Qwen/Qwen3-14B": dict(name="Qwen3 14B", arch="qwen3", license="Apache-2.0", **QWEN3_YARN, published_params_b=14.8,
                           pub_src="https://huggingface.co/Qwen/Qwen3-14B (model card: 'Number of Parameters: 14.8B')"),
    "Qwen/Qwen3-32B": dict(name="Qwen3 32B", arch="qwen3", license="Apache-2.0", **QWEN3_YARN, published_params_b=32.8,
                           pub_src="https://huggingface.co/Qwen/Qwen3-32B (model card: 'Number of Parameters: 32.8B')"),
    "Qwen/Qwen3-30B-A3B": dict(name="Qwen3 30B A3B", family="Qwen3", arch="qwen3moe", license="Apache-2.0", **QWEN3_YARN,
                               published_params_b=30.5, published_active_params_b=3.3,
                               pub_src="https://huggingface.co/Qwen/Qwen3-30B-A3B (model card: 'Number of Parameters: 30.5B in total and 3.3B activated')"),
    "Qwen/Qwen3-235B-A22B": dict(name="Qwen3 235B A22B", family="Qwen3", arch="qwen3moe", license="Apache-2.0", **QWEN3_YARN,
                                 published_params_b=235.0, published_active_params_b=22.0,
                                 pub_src="https://huggingface.co/Qwen/Qwen3-235B-A22B (model card: 'Number of Parameters: 235B in total and 22B activated')"),
    "meta-llama/Llama-3.1-8B-Instruct": dict(name="Llama 3.1 8B Instruct", arch="llama", license="Llama-3.1 Community", **L31,
                                             published_params_b=8.0, pub_src=LLAMA_MODELS + "llama3_1/MODEL_CARD.md ('8B')"),
    "meta-llama/Llama-3.1-70B-Instruct": dict(name="Llama 3.1 70B Instruct", arch="llama", license="Llama-3.1 Community", **L31,
                                              published_params_b=70.0, pub_src=LLAMA_MODELS + "llama3_1/MODEL_CARD.md ('70B')"),
    "meta-llama/Llama-3.1-405B-Instruct": dict(name="Llama 3.1 405B Instruct", arch="llama", license="Llama-3.1 Community", **L31,
                                               published_params_b=405.0, pub_src=LLAMA_MODELS + "llama3_1/MODEL_CARD.md ('405B')"),
    "meta-llama/Llama-3.2-1B-Instruct": dict(name="Llama 3.2 1B Instruct", arch="llama", license="Llama-3.2 Community", **L31,
                                             published_params_b=1.23, pub_src=LLAMA_MODELS + "llama3_2/MODEL_CARD.md ('1B (1.23B)')"),
    "meta-llama/Llama-3.2-3B-Instruct": dict(name="Llama 3.2 3B Instruct", arch="llama", license="Llama-3.2 Community", **L31,
                                             published_params_b=3.21, pub_src=LLAMA_MODELS + "llama3_2/MODEL_CARD.md ('3B (3.21B)')"),
    "meta-llama/Llama-3.3-70B-Instruct": dict(name="Llama 3.3 70B Instruct", arch="llama", license="Llama-3.3 Community", **L31,
                                              published_params_b=70.0, pub_src=LLAMA_MODELS + "llama3_3/MODEL_CARD.md ('70B')"),
    "deepseek-ai/DeepSeek-R1-Distill-Llama-70B": dict(name="DeepSeek R1 Distill Llama 70B", family="DeepSeek-R1-Distill", arch="llama",
                                                      license="MIT (Llama-3.3 base)", **L31, published_params_b=70.0,
                                                      pub_src="model name ('70B')"),
    "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B": dict(name="DeepSeek R1 Distill Qwen 7B", family="DeepSeek-R1-Distill", arch="qwen2",
                                                    license="MIT (Qwen2.5 base, Apache-2.0)", published_params_b=None,
                                                    extra_notes=["name says 7B; computed 7.62B is 8.8% off, so published_params_b is left null (no precise count published)"]),
    "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B": dict(name="DeepSeek R1 Distill Qwen 32B", family="DeepSeek-R1-Distill", arch="qwen2",
                                                     license="MIT (Qwen2.5 base, Apache-2.0)", published_params_b=32.5,
                                                     pub_src="base model Qwen2.5-32B card 'Number of Parameters: 32.5B' (distill keeps the base architecture; deepseek-ai/DeepSeek-R1@0cf78561f1d51c84a21b2190626b21116d5c68bb:README.md distill table)"),
    "meta-llama/Llama-4-Scout-17B-16E-Instruct": dict(name="Llama 4 Scout 17B-16E Instruct", arch="llama4", license="Llama-4 Community"),
    "meta-llama/Llama-4-Maverick-17B-128E-Instruct": dict(name="Llama 4 Maverick 17B-128E Instruct", arch="llama4", license="Llama-4 Community"),
    "mistralai/Mistral-7B-Instruct-v0.3": dict(name="Mistral 7B Instruct v0.3", family="Mistral", arch="llama", license="Apache-2.0",
                                               published_params_b=7.3,
                                               pub_src="https://mistral.ai/news/announcing-mistral-7b/ ('Mistral 7B is a 7.3B parameter model'; v0.3 only extends the vocabulary to 32768)"),
    "mistralai/Mistral-Nemo-Instruct-2407": dict(name="Mistral NeMo 12B Instruct 2407", family="Mistral", arch="llama", license="Apache-2.0",
                                                 extra_notes=["announced as '12B' (rounded); computed 12.25B is 2.1% above it, so published_params_b is null"]),
    "mistralai/Mistral-Small-24B-Instruct-2501": dict(name="Mistral Small 3 24B Instruct 2501", family="Mistral", arch="llama",
                                                      license="Apache-2.0", published_params_b=None,
                                                      extra_notes=["name/card say 24B; computed text params 23.57B are 1.8% lower, so published_params_b is left null"]),
    "mistralai/Mistral-Small-3.1-24B-Instruct-2503": dict(name="Mistral Small 3.1 24B Instruct 2503", family="Mistral", arch="llama",
                                                          license="Apache-2.0"),
    "mistralai/Mixtral-8x7B-Instruct-v0.1": dict(name="Mixtral 8x7B Instruct v0.1", family="Mixtral", arch="llama", license="Apache-2.0",
                                                 published_params_b=46.7, published_active_params_b=12.9,
                                                 pub_src="https://mistral.ai/news/mixtral-of-experts/ ('46.7B total parameters but only uses 12.9B parameters per token')"),
    "mistralai/Mixtral-8x22B-Instruct-v0.1": dict(name="Mixtral 8x22B Instruct v0.1", family="Mixtral", arch="llama", license="Apache-2.0",
                                                  published_params_b=141.0, published_active_params_b=39.0,
                                                  pub_src="https://mistral.ai/news/mixtral-8x22b/ ('39B active parameters out of 141B')"),
    "google/gemma-2-2b-it": dict(name="Gemma 2 2B IT", arch="gemma2", license=GEMMA_LIC, published_params_b=2.61,
                                 pub_src="google/gemma-2-2b model card / Gemma 2 report (2.61B incl. embeddings) - UNSURE, not re-fetched"),
    "google/gemma-2-9b-it": dict(name="Gemma 2 9B IT", arch="gemma2", license=GEMMA_LIC, published_params_b=9.24,
                                 pub_src="exact count from llama.cpp GGUF: " + CALIB_QSIZES + " -> 9,241,705,984 params"),
    "google/gemma-2-27b-it": dict(name="Gemma 2 27B IT", arch="gemma2", license=GEMMA_LIC, published_params_b=27.0,
                                  pub_src="model name ('27b')"),
    "google/gemma-3-1b-it": dict(name="Gemma 3 1B IT", arch="gemma3", license=GEMMA_LIC, published_params_b=1.0,
                                 pub_src="model name ('1b'; text-only model)"),
    "google/gemma-3-4b-it": dict(name="Gemma 3 4B IT", arch="gemma3", license=GEMMA_LIC,
                                 extra_notes=["published '4B' includes the ~0.4B SigLIP vision encoder; no text-only count is published, so published_params_b is null (computed text decoder 3.88B)"]),
    "google/gemma-3-12b-it": dict(name="Gemma 3 12B IT", arch="gemma3", license=GEMMA_LIC,
                                  extra_notes=["published '12B' includes the ~0.4B SigLIP vision encoder; no text-only count is published, so published_params_b is null (computed text decoder 11.77B)"]),
    "google/gemma-3-27b-it": dict(name="Gemma 3 27B IT", arch="gemma3", license=GEMMA_LIC,
                                  extra_notes=["published '27B' includes the ~0.4B SigLIP vision encoder; no text-only count is published, so published_params_b is null (computed text decoder 27.01B)"]),
    "microsoft/Phi-3.5-mini-instruct": dict(name="Phi-3.5 mini Instruct", arch="phi3", license="MIT", published_params_b=3.8,
                                            pub_src="https://huggingface.co/microsoft/Phi-3.5-mini-instruct (model card: '3.8B parameters')",
                                            rope_scaling="longrope", extended_context=0),
    "microsoft/phi-4": dict(name="Phi-4", arch="phi3", license="MIT", tie_embeddings=False, published_params_b=14.7,
                            pub_src="https://huggingface.co/microsoft/phi-4 (model card: '14B parameters'; technical report 14.7B) - UNSURE",
                            tie_src="tie_word_embeddings false assumed (phi-4 config; reference left it null) - UNSURE"),
    "deepseek-ai/DeepSeek-V3": dict(name="DeepSeek V3", arch="deepseek2", license="DeepSeek Model License (code MIT)",
                                    published_params_b=671.0, published_active_params_b=37.0,
                                    pub_src="reference stated_params '671B total, 37B activated' (main model; the HF repo's 685B adds the 14B MTP module)"),
    "deepseek-ai/DeepSeek-R1": dict(name="DeepSeek R1", arch="deepseek2", license="MIT",
                                    published_params_b=671.0, published_active_params_b=37.0,
                                    pub_src="reference stated_params '671B total, 37B activated' (main model; MTP module excluded)"),
    "openai/gpt-oss-20b": dict(name="gpt-oss 20B", arch="gpt-oss", license="Apache-2.0",
                               published_params_b=21.0, published_active_params_b=3.6,
                               pub_src="reference stated_params '21B total, 3.6B active' (OpenAI model card)"),
    "openai/gpt-oss-120b": dict(name="gpt-oss 120B", arch="gpt-oss", license="Apache-2.0",
                                published_params_b=117.0, published_active_params_b=5.1,
                                pub_src="reference stated_params '117B total, 5.1B active' (OpenAI model card)"),
    "CohereForAI/c4ai-command-r-v01": dict(name="Command R (v01) 35B", family="Command R", arch="command-r", license="CC-BY-NC-4.0",
                                           published_params_b=35.0, pub_src="model card ('35 billion parameter') - UNSURE, not re-fetched"),
    "CohereForAI/c4ai-command-r-08-2024": dict(name="Command R 08-2024 32B", family="Command R", arch="command-r", license="CC-BY-NC-4.0",
                                               published_params_b=32.0, pub_src="model card ('32 billion parameter') - UNSURE, not re-fetched"),
    "01-ai/Yi-1.5-34B-Chat": dict(name="Yi-1.5 34B Chat", arch="llama", license="Apache-2.0", published_params_b=34.4,
                                  pub_src="model name ('34B'); computed 34.39B"),
    "THUDM/glm-4-9b-chat": dict(name="GLM-4 9B Chat", arch="chatglm", license="GLM-4 License", published_params_b=9.4,
                                pub_src="https://huggingface.co/THUDM/glm-4-9b-chat (HF shows 9.4B params) - UNSURE",
                                extra_notes=["arch chatglm: this repo is the original ChatGLMModel checkpoint (llama.cpp 'chatglm'); the -hf variant converts as 'glm4'"]),
    "ibm-granite/granite-3.2-2b-instruct": dict(name="Granite 3.2 2B Instruct", family="Granite 3", arch="granite", license="Apache-2.0",
                                                published_params_b=2.53, pub_src="computed 2.534B; card says '2B' - see notes"),
    "ibm-granite/granite-3.2-8b-instruct": dict(name="Granite 3.2 8B Instruct", family="Granite 3", arch="granite", license="Apache-2.0",
                                                published_params_b=8.17, pub_src="computed 8.171B; card says '8B' - see notes"),
    "tiiuae/Falcon3-7B-Instruct": dict(name="Falcon3 7B Instruct", arch="llama", license="TII Falcon License 2.0",
                                       tie_embeddings=False, published_params_b=7.46,
                                       pub_src="https://huggingface.co/tiiuae/Falcon3-7B-Instruct (HF safetensors 7.46B) - UNSURE",
                                       tie_src="untied assumed (reference null); the untied count matches HF's 7.46B - UNSURE"),
    "tiiuae/Falcon3-10B-Instruct": dict(name="Falcon3 10B Instruct", arch="llama", license="TII Falcon License 2.0",
                                        tie_embeddings=False, published_params_b=10.3,
                                        pub_src="https://huggingface.co/tiiuae/Falcon3-10B-Instruct (HF safetensors 10.3B) - UNSURE",
                                        tie_src="untied assumed (reference null) - UNSURE"),
    "allenai/OLMo-2-1124-7B-Instruct": dict(name="OLMo 2 7B Instruct (1124)", family="OLMo 2", arch="olmo2", license="Apache-2.0",
                                            published_params_b=7.3, pub_src="model card (7.30B) - UNSURE"),
    "allenai/OLMo-2-1124-13B-Instruct": dict(name="OLMo 2 13B Instruct (1124)", family="OLMo 2", arch="olmo2", license="Apache-2.0",
                                             published_params_b=13.7, pub_src="model card (13.7B) - UNSURE"),
    "allenai/OLMo-2-0325-32B-Instruct": dict(name="OLMo 2 32B Instruct (0325)", family="OLMo 2", arch="olmo2", license="Apache-2.0",
                                             published_params_b=32.2, pub_src="model card (32.2B) - UNSURE", qk_norm=True),
    "HuggingFaceTB/SmolLM2-1.7B-Instruct": dict(name="SmolLM2 1.7B Instruct", arch="llama", license="Apache-2.0",
                                                published_params_b=1.71, pub_src="model name ('1.7B'); computed 1.711B"),
    "ai21labs/Jamba-v0.1": dict(name="Jamba v0.1", family="Jamba", arch="jamba", license="Apache-2.0",
                                published_params_b=52.0, published_active_params_b=12.0,
                                pub_src="https://huggingface.co/ai21labs/Jamba-v0.1 (model card: '12B active parameters and a total of 52B parameters')"),
}


def ref_license_note(r):
    lic = r.get("license") or {}
    if lic.get("value"):
        return f"license per reference: {lic['value']} ({lic.get('source', '')})"
    return "license short form from the model card; the reference file had none (not verified here)"


def convert_ref(r):
    o = REF[r["id"]]
    h, nh = r["hidden_size"], r["num_attention_heads"]
    m = {
        "id": r["id"], "name": o["name"], "family": o.get("family", r["family"].split(" (")[0]),
        "license": o["license"], "arch": o["arch"],
        "n_layers": r["num_hidden_layers"], "hidden_size": h, "intermediate_size": r["intermediate_size"],
        "n_heads": nh, "n_kv_heads": r["num_key_value_heads"],
        "head_dim": r.get("head_dim") or (h // nh if h and nh else None), "head_dim_v": None,
        "vocab_size": r["vocab_size"],
        "tie_embeddings": bool(r.get("tie_word_embeddings")) if r.get("tie_word_embeddings") is not None else None,
        "qkv_bias": bool(r.get("qkv_bias") or r.get("attention_bias")),
        "qk_norm": bool(r.get("qk_norm")), "gated_ffn": True,
        "native_context": r.get("native_context"), "extended_context": 0, "rope_scaling": "",
        "moe": None, "mla": None, "swa": None, "hybrid": None,
        "published_params_b": None, "published_active_params_b": None, "api_price": None,
        "sources": list(r.get("sources", [])) + [LLAMACPP_ARCH + f": arch '{o['arch']}'"],
        "notes": list(r.get("notes", [])),
    }
    notes = m["notes"]
    notes.append(ref_license_note(r))
    for k in ("tie_embeddings", "native_context", "extended_context", "rope_scaling", "qk_norm"):
        if k in o:
            m[k] = o[k]
    if o.get("tie_src"):
        notes.append(o["tie_src"])
    if r.get("rope_scaling") and not m["rope_scaling"]:
        rs = r["rope_scaling"]
        m["rope_scaling"] = rs.get("rope_type") or rs.get("type") or ""
    if o.get("published_params_b"):
        m["published_params_b"] = o["published_params_b"]
        m["published_active_params_b"] = o.get("published_active_params_b")
        m["sources"].append("published params: " + o["pub_src"])
    notes.extend(o.get("extra_notes", []))
    if r.get("rope_scaling_extension") and m["extended_context"]:
        ext = r["rope_scaling_extension"]
        if ext.get("source"):
            m["sources"].append("YaRN extension: " + ext["source"])
        notes.append("extended_context: YaRN factor 4 over 32768 added by the user in config.json (not enabled in the shipped config)")
    return m


def fix_ref_specific(m, r):
    """Architecture blocks and corrections per reference model."""
    i, notes, src = m["id"], m["notes"], m["sources"]
    if r.get("num_experts"):
        m["moe"] = {"n_experts": r["num_experts"], "n_experts_active": r["experts_per_token"],
                    "n_shared_experts": r.get("shared_experts") or 0, "expert_ffn": r.get("moe_intermediate_size") or r["intermediate_size"],
                    "shared_ffn": 0, "first_dense_layers": r.get("first_k_dense_layers") or 0,
                    "layer_step": r.get("moe_layer_interleave_step") or 1, "router_bias": False}
    if i.startswith("Qwen/Qwen3-") and m["moe"]:
        notes.append(f"HF intermediate_size {m['intermediate_size']} is unused (every layer is MoE: decoder_sparse_step 1, mlp_only_layers []); intermediate_size set to 0")
        m["intermediate_size"] = 0
    if i.startswith("mistralai/Mixtral"):
        m["intermediate_size"] = 0
        notes.append("every layer MoE: intermediate_size set to 0, expert_ffn = HF intermediate_size")
    if i.startswith("meta-llama/Llama-4"):
        m["moe"]["shared_ffn"] = r["moe_intermediate_size"]
        m["swa"] = {"window": 8192, "pattern": 4, "sliding_layers": []}
        src.append(LLAMACPP_MODEL + " (LLM_ARCH_LLAMA4: swa_type CHUNKED, n_swa 8192, set_swa_pattern(4) '3 chunked - 1 full'; 128E: use_kq_norm false)")
        notes.append("swa block = llama.cpp chunked attention (attention within 8192-token chunks, every 4th layer full/NoPE)")
        if "Scout" in i:
            m["intermediate_size"] = 0
            m["native_context"] = 10485760
            m["rope_scaling"] = "llama3"
            m["published_params_b"], m["published_active_params_b"] = None, 17.0
            notes.append("card's 109B total includes the vision encoder; computed text-only 107.77B (-1.1%); no text-only total is published, so published_params_b is null")
            notes.append("every layer MoE (interleave_moe_layer_step 1): intermediate_size 0; shared expert width 8192")
            notes.append("native_context 10485760 = '10M tokens' (model card) as HF max_position_embeddings; reference left it null - UNSURE of exact HF value")
            notes.append("published 109B/17B includes the vision encoder (maxtext yml: 34-layer ViT, hidden 1408) and the MoE text model; computed text-only count is compared")
        else:
            m["native_context"] = 1048576
            m["moe"]["layer_step"] = 2
            m["published_params_b"], m["published_active_params_b"] = 400.0, 17.0
            notes.append("MoE on every 2nd layer (interleave_moe_layer_step 2, layers 1,3,5,...); dense layers use intermediate_size 16384; shared expert width 8192")
            notes.append("native_context 1048576 = '1M tokens' (model card); reference left it null - UNSURE of exact HF value")
        src.append("published params: " + LLAMA_MODELS + "llama4/MODEL_CARD.md (17B active; 109B / 400B total)")
    if i.startswith("deepseek-ai/DeepSeek-V3") or i.startswith("deepseek-ai/DeepSeek-R1") and r.get("mla"):
        if r.get("mla"):
            ml = r["mla"]
            m["mla"] = {k: ml[k] for k in ("q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim")}
            m["head_dim"] = ml["qk_nope_head_dim"] + ml["qk_rope_head_dim"]
            m["head_dim_v"] = ml["v_head_dim"]
            m["moe"]["router_bias"] = True
            m["rope_scaling"] = "yarn"
            notes.append("head_dim = qk_nope_head_dim + qk_rope_head_dim (192), head_dim_v = v_head_dim; n_kv_heads = n_heads (MLA, llama.cpp caches kv_lora_rank+rope = 576 per token per layer)")
            notes.append("router_bias: noaux_tc expert-score correction bias (e_score_correction_bias); first 3 layers dense (first_k_dense_replace 3)")
            notes.append("num_nextn_predict_layers 1: the MTP layer (~14B) is not counted (llama.cpp does not load it for deepseek2)")
    if i.startswith("openai/gpt-oss"):
        m["moe"]["router_bias"] = True
        m["intermediate_size"] = 0
        m["swa"] = {"window": 128, "pattern": 2, "sliding_layers": []}
        m["rope_scaling"] = "yarn"
        notes.append("swa: alternating sliding(128)/full, layer 0 sliding (llama.cpp gpt-oss: set_swa_pattern(2)); attention sinks per head; q/k/v/o biases; router bias and per-expert biases (expert biases ~0.03% of params, not modelled)")
        notes.append("every layer MoE: intermediate_size 0; expert weights ship as MXFP4")
    if i.startswith("google/gemma-2"):
        m["swa"] = {"window": r["sliding_window"], "pattern": 2, "sliding_layers": []}
        notes.append("swa: llama.cpp gemma2 set_swa_pattern(2): even layers (0,2,..) sliding 4096, odd layers global; attn/final logit softcapping 50/30")
        notes.append("4 norms per layer (pre/post attention and FFN) - the checker counts 2; difference < 0.01%")
        m["gated_ffn"] = True
    if i.startswith("google/gemma-3"):
        m["swa"] = {"window": r["sliding_window"], "pattern": 6, "sliding_layers": []}
        notes.append(f"swa: llama.cpp gemma3 set_swa_pattern(6): 5 sliding ({r['sliding_window']}) then 1 global; local RoPE base 10000, global 1e6")
        if "1b" not in i:
            m["rope_scaling"] = "linear"
            notes.append("rope_scaling linear factor 8 on global layers is part of the shipped config; 128K is native")
    if i == "mistralai/Mistral-Small-3.1-24B-Instruct-2503":
        m.update(n_layers=40, hidden_size=5120, intermediate_size=32768, n_heads=32, n_kv_heads=8, head_dim=128,
                 vocab_size=131072, tie_embeddings=False, native_context=131072)
        notes.append("text architecture fields copied from Mistral-Small-24B-Instruct-2501; confirmed by Devstral Small 1.1, a fine-tune of Mistral-Small-3.1 "
                     "with the vision encoder removed, whose params.json has the same shapes (issue 13: the earlier UNSURE is resolved)")
        src.append(DEVSTRAL_MIRROR + "params.json and model.safetensors.index.json (Devstral-Small-2507 = Mistral-Small-3.1 text model: dim 5120, 40 layers, "
                   "hidden_dim 32768, 32/8 heads, head_dim 128, vocab 131072, untied, total_parameters 23,572,403,200)")
        m["published_params_b"] = 23.57
        src.append("published params (text model): total_parameters 23,572,403,200 of the same backbone (" + DEVSTRAL_MIRROR + "model.safetensors.index.json)")
        notes.append("native_context 131072 (reference says 128000 '128k' from a third-party page) - UNSURE")
        notes.append("multimodal (Pixtral vision encoder not counted); llama.cpp converts the text model as 'llama' (recent llama.cpp also has 'mistral3' for Ministral 3)")
        src.append("architecture fields: https://huggingface.co/unsloth/Mistral-Small-24B-Instruct-2501-GGUF/blob/main/config.json (2501 backbone)")
    if i == "ai21labs/Jamba-v0.1":
        hyb = r["hybrid"]
        d_inner = hyb["mamba_expand"] * m["hidden_size"]
        ds, dc, dtr, h = hyb["mamba_d_state"], hyb["mamba_d_conv"], hyb["mamba_dt_rank"], m["hidden_size"]
        rec = (h * 2 * d_inner + d_inner * dc + d_inner + d_inner * (dtr + 2 * ds) + dtr * d_inner + d_inner
               + d_inner * ds + d_inner + d_inner * h + dtr + 2 * ds)
        m["hybrid"] = {"recurrent_type": "mamba", "attention_layers": hyb["attention_layers"],
                       "ssm_state_bytes_per_layer": 4 * ((dc - 1) * d_inner + ds * d_inner),
                       "recurrent_layer_params": rec}
        m["moe"] = {"n_experts": r["num_experts"], "n_experts_active": r["experts_per_token"], "n_shared_experts": 0,
                    "expert_ffn": r["intermediate_size"], "shared_ffn": 0, "first_dense_layers": 0, "layer_step": 2,
                    "router_bias": False}
        notes.append("MoE every 2nd layer (expert_layer_period 2, offset 1 -> layers 1,3,..); attention every 8th layer (offset 4)")
        notes.append(f"recurrent_layer_params derived from the Mamba-1 shapes (in_proj h->2*d_inner, conv1d d_inner*4+bias, x_proj d_inner->dt_rank+2*d_state, dt_proj+bias, A_log, D, out_proj, dt/B/C layernorms) with d_inner={d_inner}, d_state={ds}, dt_rank={dtr}: {rec}")
        notes.append("ssm_state_bytes_per_layer = f32 * ((d_conv-1)*d_inner + d_state*d_inner), as llama.cpp sizes r/s recurrent states")
    if i == "CohereForAI/c4ai-command-r-v01":
        notes.append("one (parallel-residual) LayerNorm per layer in llama.cpp command-r; checker counts 2 norms (<0.01%)")
        notes.append("native_context 131072 per model card (128k) although the config's max_position_embeddings is 8192 - UNSURE which llama.cpp uses by default")
    if i == "allenai/OLMo-2-1124-7B-Instruct" or i == "allenai/OLMo-2-1124-13B-Instruct" or i == "allenai/OLMo-2-0325-32B-Instruct":
        notes.append("OLMo 2 q/k norms span the full projection (n_heads*head_dim, n_kv*head_dim), post-norm placement; checker counts 2*head_dim (<0.01%)")
    if i == "mistralai/Mistral-Nemo-Instruct-2407":
        notes.append("head_dim 128 explicit (hidden/heads would be 160)")
    if m["tie_embeddings"] is None:
        m["tie_embeddings"] = False
        notes.append("tie_embeddings false assumed (reference null) - UNSURE")


# ---------------------------------------------------------------------------------------------------------------
# Additional models (not in the reference file). Values from the cited configs.
# ---------------------------------------------------------------------------------------------------------------
def base(id_, name, family, license_, arch, L, h, ffn, nh, nkv, V, tie, ctx, **kw):
    m = {"id": id_, "name": name, "family": family, "license": license_, "arch": arch, "n_layers": L, "hidden_size": h,
         "intermediate_size": ffn, "n_heads": nh, "n_kv_heads": nkv, "head_dim": kw.pop("head_dim", h // nh),
         "head_dim_v": None, "vocab_size": V, "tie_embeddings": tie, "qkv_bias": kw.pop("qkv_bias", False),
         "qk_norm": kw.pop("qk_norm", False), "gated_ffn": True, "native_context": ctx,
         "extended_context": kw.pop("extended_context", 0), "rope_scaling": kw.pop("rope_scaling", ""),
         "moe": kw.pop("moe", None), "mla": kw.pop("mla", None), "swa": kw.pop("swa", None),
         "hybrid": kw.pop("hybrid", None), "published_params_b": kw.pop("pub", None),
         "published_active_params_b": kw.pop("pub_active", None), "api_price": None,
         "sources": kw.pop("sources") + [LLAMACPP_ARCH + f": arch '{arch}'"], "notes": kw.pop("notes", [])}
    assert not kw, kw
    return m


def moe(E, k, eff, shared=0, sffn=0, first=0, step=1, bias=False):
    return {"n_experts": E, "n_experts_active": k, "n_shared_experts": shared, "expert_ffn": eff, "shared_ffn": sffn,
            "first_dense_layers": first, "layer_step": step, "router_bias": bias}


def qwen3next_recurrent():
    # Gated DeltaNet mixer shapes of Qwen3-Next-80B-A3B (maxtext qwen3_next_80b_a3b_dict)
    h, nk, nv, dk, dv, conv = 2048, 16, 32, 128, 128, 4
    key_dim, val_dim = nk * dk, nv * dv
    p = h * (2 * key_dim + 2 * val_dim)      # in_proj_qkvz
    p += h * 2 * nv                          # in_proj_ba
    p += (2 * key_dim + val_dim) * conv      # conv1d (no bias)
    p += nv + nv                             # dt_bias, A_log
    p += dv                                  # gated RMSNorm weight
    p += val_dim * h                         # out_proj
    state = 4 * ((conv - 1) * (2 * key_dim + val_dim) + dk * val_dim)
    return p, state


DEVSTRAL_MIRROR = "fetchwiki/mistralai-Devstral-Small-2507@bc3721c07bf4218d98ed05ea1cff91918ef2b17f:"
LIC_L2 = "Llama-2 Community"
ADDED = []


def add_models():
    A = ADDED.append
    A(base("meta-llama/Meta-Llama-3-8B", "Meta Llama 3 8B", "Llama 3", "Llama-3 Community", "llama",
           32, 4096, 14336, 32, 8, 128256, False, 8192, pub=8.0,
           sources=[LITGPT + " (entry 'Llama-3-8B'; cites https://huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json)",
                    "llama-bench rows of XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86 (LLaMA 3 tables; copied in assets/calibration/llamacpp_speed.jsonl) use the same config",
                    "published params: model name ('8B')"]))
    A(base("meta-llama/Meta-Llama-3-70B", "Meta Llama 3 70B", "Llama 3", "Llama-3 Community", "llama",
           80, 8192, 28672, 64, 8, 128256, False, 8192, pub=70.0,
           sources=[LITGPT + " (entry 'Llama-3-70B')", "llama-bench rows of XiongjieDai/GPU-Benchmarks-on-LLM-Inference@aa72e0ec86 (LLaMA 3 tables; copied in assets/calibration/llamacpp_speed.jsonl) use the same config",
                    "published params: model name ('70B')"]))
    A(base("meta-llama/Llama-2-7b-hf", "Llama 2 7B", "Llama 2", LIC_L2, "llama",
           32, 4096, 11008, 32, 32, 32000, False, 4096,
           sources=[LITGPT + " (entry 'Llama-2-7b{}-hf'; cites https://huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json)",
                    "llama-bench rows of https://github.com/ggml-org/llama.cpp/pull/4766 (Llama-2-7B; copied in assets/calibration/llamacpp_speed.jsonl) use the same config"],
           notes=["name says 7B; computed 6.74B is 3.9% lower, so published_params_b is null (no precise count in the card)"]))
    A(base("meta-llama/Llama-2-13b-hf", "Llama 2 13B", "Llama 2", LIC_L2, "llama",
           40, 5120, 13824, 40, 40, 32000, False, 4096, pub=13.0,
           sources=[LITGPT + " (entry 'Llama-2-13b{}-hf')", "published params: model name ('13b')"]))
    A(base("meta-llama/Llama-2-70b-hf", "Llama 2 70B", "Llama 2", LIC_L2, "llama",
           80, 8192, 28672, 64, 8, 32000, False, 4096, pub=69.0,
           sources=[LITGPT + " (entry 'Llama-2-70b{}-hf')"],
           notes=["name says 70B; computed 68.98B (1.5% lower). published_params_b 69.0 = Llama 2 paper's ~69B - UNSURE, not re-fetched"]))
    A(base("TinyLlama/TinyLlama-1.1B", "TinyLlama 1.1B", "TinyLlama", "Apache-2.0", "llama",
           22, 2048, 5632, 32, 4, 32000, False, 2048, pub=1.1,
           sources=[LITGPT + " (entry 'tiny-llama-1.1b'; HF TinyLlama/TinyLlama-1.1B-intermediate-step-1431k-3T / -Chat-v1.0)",
                    "id as spelled by the TinyLlama rows of assets/calibration/llamacpp_speed.jsonl",
                    "published params: model name ('1.1B')"],
           notes=["id kept as the calibration data spells it; the HF checkpoints are TinyLlama/TinyLlama-1.1B-Chat-v1.0 and -intermediate-step-1431k-3T"]))
    A(base("mistralai/Mistral-7B-Instruct-v0.1", "Mistral 7B Instruct v0.1", "Mistral", "Apache-2.0", "llama",
           32, 4096, 14336, 32, 8, 32000, False, 32768, pub=7.3,
           swa={"window": 4096, "pattern": 1, "sliding_layers": []},
           sources=[LITGPT + " (entry 'Mistral-7B-{}v0.1', sliding_window_size 4096; cites https://huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json)",
                    "published params: https://mistral.ai/news/announcing-mistral-7b/ ('7.3B parameter model')",
                    "https://github.com/ggml-org/llama.cpp/issues/3371 and /issues/3377 (SWA for Mistral in llama.cpp; closed unimplemented)"],
           notes=["HF config: sliding_window 4096 on every layer (pattern 1 = all sliding); native_context 32768 (max_position_embeddings)",
                  "llama.cpp converts Mistral v0.1 as arch 'llama' and does not apply the window (issues #3371/#3377 closed without SWA); llama.cpp allocates a full-context KV cache - the engine should ignore swa for arch 'llama' if it mirrors llama.cpp"]))
    A(base("mistralai/Mistral-Large-Instruct-2411", "Mistral Large 2 (2411)", "Mistral", "Mistral Research License", "llama",
           88, 12288, 28672, 96, 8, 32768, False, 131072, pub=123.0,
           sources=[LITGPT + " (entry 'Mistral-Large-Instruct-2411'; cites https://huggingface.co/mistralai/Mistral-Large-Instruct-2411/blob/main/config.json)",
                    "published params: model card ('123B')"],
           notes=["native_context 131072 per model card ('128k context window'); litgpt block_size is 32768 - UNSURE"]))
    A(base("Qwen/Qwen2.5-Coder-7B-Instruct", "Qwen2.5 Coder 7B Instruct", "Qwen2.5-Coder", "Apache-2.0", "qwen2",
           28, 3584, 18944, 28, 4, 152064, False, 32768, qkv_bias=True, extended_context=131072, rope_scaling="yarn",
           pub=7.61,
           sources=[LITGPT + " (entry 'Qwen2.5-Coder-7B{}', padded_vocab_size 152064, attn_bias True)",
                    "published params: https://huggingface.co/Qwen/Qwen2.5-Coder-7B-Instruct (model card: 'Number of Parameters: 7.61B')",
                    "YaRN extension: QwenLM/Qwen2.5@486bf7575c9bc9e9b55826e18e7c15beba4d381f:docs/source/deployment/vllm.md"]))
    A(base("deepseek-ai/DeepSeek-R1-Distill-Llama-8B", "DeepSeek R1 Distill Llama 8B", "DeepSeek-R1-Distill", "MIT (Llama-3.1 base)",
           "llama", 32, 4096, 14336, 32, 8, 128256, False, 131072, rope_scaling="llama3", pub=8.0,
           sources=[LITGPT + " (entry 'R1-Distill-Llama-8B'; cites https://huggingface.co/deepseek-ai/DeepSeek-R1-Distill-Llama-8B/blob/main/config.json)",
                    "published params: model name ('8B')"]))
    A(base("microsoft/Phi-4-mini-instruct", "Phi-4 mini Instruct", "Phi-4", "MIT", "phi3",
           32, 3072, 8192, 24, 8, 200064, True, 131072, rope_scaling="longrope", pub=3.8,
           sources=[LITGPT + " (entry 'Phi-4-mini-instruct': padded_vocab_size 200064, n_query_groups 8, rotary_percentage 0.75, block_size 131072)",
                    "published params: https://huggingface.co/microsoft/Phi-4-mini-instruct (model card: '3.8B parameters')"],
           notes=["tie_embeddings true per the HF config (tie_word_embeddings true) - not in litgpt entry; UNSURE",
                  "partial rotary (75% of head_dim); HF sliding_window 262145 exceeds the context, so no SWA"]))
    A(base("Qwen/Qwen3-4B-Instruct-2507", "Qwen3 4B Instruct 2507", "Qwen3", "Apache-2.0", "qwen3",
           36, 2560, 9728, 32, 8, 151936, True, 262144, head_dim=128, qk_norm=True, pub=4.0,
           sources=[LITGPT + " (entry 'Qwen3-4B-{}-2507': block_size 262144, rope_base 5e6, head_size 128, norm_qk)",
                    "published params: https://huggingface.co/Qwen/Qwen3-4B-Instruct-2507 (model card: 'Number of Parameters: 4.0B')"],
           notes=["tie_embeddings true as Qwen3-4B (reference) - UNSURE for the 2507 checkpoint"]))
    A(base("Qwen/Qwen3-30B-A3B-Instruct-2507", "Qwen3 30B A3B Instruct 2507", "Qwen3", "Apache-2.0", "qwen3moe",
           48, 2048, 0, 32, 4, 151936, False, 262144, head_dim=128, qk_norm=True, moe=moe(128, 8, 768),
           pub=30.5, pub_active=3.3,
           sources=[LITGPT + " (entry 'Qwen3-30B-A3B-{}-2507': block_size 262144, moe_intermediate_size 768, 128 experts, 8 per token)",
                    MAXTEXT_HF + " (qwen3_30b_a3b_thinking_2507_config: max_position_embeddings 262144, rope_theta 1e7, tie false)",
                    "published params: https://huggingface.co/Qwen/Qwen3-30B-A3B-Instruct-2507 (model card: '30.5B in total and 3.3B activated')"],
           notes=["HF intermediate_size 6144 unused (every layer MoE); intermediate_size 0"]))
    A(base("Qwen/Qwen3-Coder-30B-A3B-Instruct", "Qwen3 Coder 30B A3B Instruct", "Qwen3-Coder", "Apache-2.0", "qwen3moe",
           48, 2048, 0, 32, 4, 151936, False, 262144, head_dim=128, qk_norm=True, moe=moe(128, 8, 768),
           extended_context=1048576, rope_scaling="yarn", pub=30.5, pub_active=3.3,
           sources=["ztxz16/fastllm:Qwen3-Coder-30B-A3B-Instruct/README.md (copy of the model card: 30.5B total / 3.3B activated, 48 layers, 32 Q / 4 KV heads, 128 experts, 8 activated, 262,144 native, up to 1M with YaRN)",
                    LITGPT + " (entry 'Qwen3-30B-A3B-{}-2507' for hidden 2048, moe_intermediate_size 768, head_dim 128, vocab 151936)"],
           notes=["hidden_size/moe_intermediate_size/vocab/head_dim taken from Qwen3-30B-A3B-2507 (same Qwen3MoeForCausalLM shape; the card's layers/heads/experts/params agree) - not read from this repo's config.json",
                  "extended_context 1048576 = card's '1M tokens with YaRN' (factor 4 over 262144) - UNSURE of exact figure"]))
    A(base("Qwen/Qwen3-Coder-480B-A35B-Instruct", "Qwen3 Coder 480B A35B Instruct", "Qwen3-Coder", "Apache-2.0", "qwen3moe",
           62, 6144, 0, 96, 8, 151936, False, 262144, head_dim=128, qk_norm=True, moe=moe(160, 8, 2560),
           pub=480.0, pub_active=35.0,
           sources=[MAXTEXT_HF + " (qwen3_coder_480b_a35b_config)",
                    "published params: https://huggingface.co/Qwen/Qwen3-Coder-480B-A35B-Instruct (model card: '480B in total and 35B activated')"],
           notes=["HF intermediate_size 8192 unused (every layer MoE); intermediate_size 0"]))
    rec, state = qwen3next_recurrent()
    A(base("Qwen/Qwen3-Next-80B-A3B-Instruct", "Qwen3-Next 80B A3B Instruct", "Qwen3-Next", "Apache-2.0", "qwen3next",
           48, 2048, 0, 16, 2, 151936, False, 262144, head_dim=256, qk_norm=True,
           moe=moe(512, 10, 512, shared=1, sffn=512), extended_context=1010000, rope_scaling="yarn",
           hybrid={"recurrent_type": "gated_deltanet", "attention_layers": list(range(3, 48, 4)),
                   "ssm_state_bytes_per_layer": state, "recurrent_layer_params": rec},
           pub=80.0, pub_active=3.0,
           sources=[MAXTEXT_HF + " (qwen3_next_80b_a3b_dict)", MAXTEXT_CFG + "qwen3-next-80b-a3b.yml",
                    "published params: https://huggingface.co/Qwen/Qwen3-Next-80B-A3B-Instruct (model card: '80B in total and 3B activated'; 262,144 native, up to 1,010,000 with YaRN)"],
           notes=["full_attention_interval 4: layers 3,7,..,47 are gated full attention (12 layers), the other 36 are Gated DeltaNet",
                  "full-attention layers have an output gate (q_proj is 2x wide): +12*2048*4096 = 0.1B not modelled (0.13%)",
                  f"recurrent_layer_params derived from Gated DeltaNet shapes (in_proj_qkvz h*(2*16*128+2*32*128), in_proj_ba h*64, conv1d 8192*4, dt_bias/A_log 32 each, norm 128, out_proj 4096*h) = {rec}",
                  f"ssm_state_bytes_per_layer = f32 * (conv (4-1)*(2*2048+4096) + delta state 128*4096) = {state}, as llama.cpp sizes qwen3next r/s states - derived, UNSURE",
                  "partial_rotary_factor 0.25; shared expert has a sigmoid gate (h params, ignored); intermediate_size 0 (every layer MoE)",
                  "extended_context 1010000 per model card ('up to 1,010,000 tokens') - UNSURE, not re-fetched"]))
    A(base("moonshotai/Kimi-K2-Instruct", "Kimi K2 Instruct", "Kimi-K2", "Modified MIT", "deepseek2",
           61, 7168, 18432, 64, 64, 163840, False, 131072, head_dim=192,
           mla={"q_lora_rank": 1536, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128},
           moe=moe(384, 8, 2048, shared=1, first=1, bias=True), rope_scaling="yarn",
           pub=None, pub_active=32.0,
           sources=[MAXTEXT_CFG + "kimi-k2-1t.yml (DeepSeek-V3 block: 61 layers, emb 7168, 64 heads, mlp 18432, moe 2048, 384 experts, 8 per token, 1 shared, 1 dense layer, routed_bias, MLA 1536/512/128/64/128, vocab 163840, yarn factor 32 over 4096 -> 131072)",
                    "published params: https://huggingface.co/moonshotai/Kimi-K2-Instruct (model card: 'Total Parameters 1T, Activated Parameters 32B')"],
           notes=["head_dim 192 = nope+rope, head_dim_v 128 (MLA)",
                  "card's total '1T' is rounded (computed 1.027T, 2.7% off): published_params_b null; published active 32B kept"]))
    ADDED[-1]["head_dim_v"] = 128
    A(base("deepseek-ai/DeepSeek-V2-Lite", "DeepSeek V2 Lite", "DeepSeek-V2", "DeepSeek Model License (code MIT)", "deepseek2",
           27, 2048, 10944, 16, 16, 102400, False, 32768, head_dim=192,
           mla={"q_lora_rank": 0, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 128, "v_head_dim": 128},
           moe=moe(64, 6, 1408, shared=2, first=1), rope_scaling="yarn", pub=15.7, pub_active=2.4,
           sources=[MAXTEXT_HF + " (deepseek2_16b_dict; from https://huggingface.co/deepseek-ai/DeepSeek-V2-Lite/blob/main/config.json)",
                    MLC + " (MODEL_PRESETS['deepseek_v2_lite'])",
                    "llmsim measurement assets/calibration/llamacpp_memory.csv (llama.cpp de3ff815ea7d: arch deepseek2, 27 layers, K only 576/token/layer)",
                    CALIB_QSIZES + " -> 15,706,484,224 params in the F16 GGUF",
                    "published params: https://huggingface.co/deepseek-ai/DeepSeek-V2-Lite (model card: '15.7B total parameters, 2.4B activated'; 32k context)"],
           notes=["q_lora_rank null in HF config (no low-rank query projection) -> 0",
                  "max_position_embeddings 163840 with yarn factor 40 baked in, but the card states a 32k context; native_context 32768",
                  "2 shared experts of width 1408 (llama.cpp: expert_shared_count 2, one shared FFN of width 2816)"]))
    ADDED[-1]["head_dim_v"] = 128


# ---------------------------------------------------------------------------------------------------------------
# API prices
# ---------------------------------------------------------------------------------------------------------------
PRICE_MAP = {  # catalog id -> (api_prices key, include regex on model_id, exclude regex)
    "Qwen/Qwen2.5-14B-Instruct": ("Qwen2.5-14B-Instruct", None, None),
    "Qwen/Qwen2.5-32B-Instruct": ("Qwen2.5-32B-Instruct", None, None),
    "Qwen/Qwen2.5-Coder-32B-Instruct": ("Qwen2.5-Coder-32B-Instruct", None, None),
    "Qwen/QwQ-32B": ("QwQ-32B", None, "preview"),
    "Qwen/Qwen3-8B": ("Qwen3-8B", None, None),
    "Qwen/Qwen3-14B": ("Qwen3-14B", None, None),
    "Qwen/Qwen3-32B": ("Qwen3-32B", None, None),
    "Qwen/Qwen3-30B-A3B": ("Qwen3-30B-A3B", None, "2507"),
    "Qwen/Qwen3-30B-A3B-Instruct-2507": ("Qwen3-30B-A3B", "instruct-2507", None),
    "Qwen/Qwen3-235B-A22B": ("Qwen3-235B-A22B", None, "2507"),
    "meta-llama/Llama-3.1-8B-Instruct": ("Llama-3.1-8B-Instruct", None, None),
    "meta-llama/Llama-3.1-70B-Instruct": ("Llama-3.1-70B-Instruct", None, None),
    "meta-llama/Llama-3.1-405B-Instruct": ("Llama-3.1-405B-Instruct", None, None),
    "meta-llama/Llama-3.2-1B-Instruct": ("Llama-3.2-1B-Instruct", None, None),
    "meta-llama/Llama-3.2-3B-Instruct": ("Llama-3.2-3B-Instruct", None, None),
    "meta-llama/Llama-3.3-70B-Instruct": ("Llama-3.3-70B-Instruct", None, None),
    "meta-llama/Llama-4-Scout-17B-16E-Instruct": ("Llama-4-Scout-17B-16E", None, None),
    "meta-llama/Llama-4-Maverick-17B-128E-Instruct": ("Llama-4-Maverick-17B-128E", None, None),
    "mistralai/Mistral-7B-Instruct-v0.3": ("Mistral-7B-Instruct", r"v0\.3|v0p3|instruct-v3", None),
    "mistralai/Mistral-7B-Instruct-v0.1": ("Mistral-7B-Instruct", r"instruct-v0\.1|instruct-v0p1", None),
    "mistralai/Mistral-Nemo-Instruct-2407": ("Mistral-Nemo-12B", None, None),
    "mistralai/Mistral-Small-24B-Instruct-2501": ("Mistral-Small-24B", "2501", None),
    "mistralai/Mistral-Small-3.1-24B-Instruct-2503": ("Mistral-Small-24B", r"3\.1|3-1|2503", None),
    "mistralai/Mixtral-8x7B-Instruct-v0.1": ("Mixtral-8x7B-Instruct", None, None),
    "mistralai/Mixtral-8x22B-Instruct-v0.1": ("Mixtral-8x22B-Instruct", None, None),
    "google/gemma-2-9b-it": ("Gemma-2-9B-it", None, None),
    "google/gemma-2-27b-it": ("Gemma-2-27B-it", None, None),
    "google/gemma-3-4b-it": ("Gemma-3-4B-it", None, None),
    "google/gemma-3-12b-it": ("Gemma-3-12B-it", None, None),
    "google/gemma-3-27b-it": ("Gemma-3-27B-it", None, None),
    "microsoft/phi-4": ("Phi-4", None, None),
    "deepseek-ai/DeepSeek-V3": ("DeepSeek-V3", None, None),
    "deepseek-ai/DeepSeek-R1": ("DeepSeek-R1", None, None),
    "deepseek-ai/DeepSeek-R1-Distill-Llama-70B": ("DeepSeek-R1-Distill-Llama-70B", None, None),
    "deepseek-ai/DeepSeek-R1-Distill-Qwen-32B": ("DeepSeek-R1-Distill-Qwen-32B", None, None),
    "openai/gpt-oss-20b": ("gpt-oss-20b", None, None),
    "openai/gpt-oss-120b": ("gpt-oss-120b", None, None),
    "Qwen/Qwen3-235B-A22B-Instruct-2507": ("Qwen3-235B-A22B", "instruct-2507", None),
    "Qwen/Qwen3-235B-A22B-Thinking-2507": ("Qwen3-235B-A22B", "thinking-2507", None),
    "Qwen/Qwen3-30B-A3B-Thinking-2507": ("Qwen3-30B-A3B", "thinking-2507", None),
    "mistralai/Mistral-Small-3.2-24B-Instruct-2506": ("Mistral-Small-24B", r"3\.2|3-2|2506", None),
}


def price_from_row(r, note=None):
    p = {"input_usd_per_mtok": r["input_per_1m"], "output_usd_per_mtok": r["output_per_1m"],
         "provider": r["provider"], "date": r["date"].split(" ")[0],
         "source": f"{r['source']} (model_id '{r['model_id']}')"}
    if note:
        p["note"] = note
    return p


def pick_price(prices, key, inc, exc):
    rows = [r for r in prices[key] if not r.get("flags")
            and (inc is None or re.search(inc, r["model_id"], re.I))
            and (exc is None or not re.search(exc, r["model_id"], re.I))]
    if not rows:
        return None
    return min(rows, key=lambda r: (3 * r["input_per_1m"] + r["output_per_1m"]) / 4)


def apply_prices(models, prices):
    byid = {m["id"]: m for m in models}
    for mid, (key, inc, exc) in PRICE_MAP.items():
        r = pick_price(prices, key, inc, exc)
        if r and mid in byid:
            byid[mid]["api_price"] = price_from_row(
                r, "cheapest unflagged row by 3:1 blended price among rows matching this model")
    # Seed models: the values the product spec fixes (see report); cheapest sourced rows are recorded in notes.
    m72 = byid["Qwen/Qwen2.5-72B-Instruct"]
    r = [x for x in prices["Qwen2.5-72B-Instruct"] if x["provider_key"] == "openrouter_api"][0]
    m72["api_price"] = price_from_row(r, "seed value: OpenRouter's own listing (exact match)")
    m72["notes"].append("api_price: seed value $0.36/$0.40 = OpenRouter API snapshot 2026-08-01; the cheapest unflagged row in the price data is DeepInfra $0.12/$0.39 (LiteLLM 2026-07-24)")
    m7 = byid["Qwen/Qwen2.5-7B-Instruct"]
    r = [x for x in prices["Qwen2.5-7B-Instruct"] if x["provider"] == "DeepInfra"][0]
    m7["api_price"] = {"input_usd_per_mtok": 0.04, "output_usd_per_mtok": 0.12, "provider": "seed page (unmatched)",
                       "date": "2026-08-01",
                       "source": "seed value required by the product spec; NOT found in any price source (reference/prices/SOURCES.md 'Seed-page check'). Closest sourced: "
                                 + f"DeepInfra $0.04/$0.10, {r['source']}",
                       "note": "output price 0.12 unsourced"}
    m7["notes"].append("api_price: $0.04/$0.12 is the seed page's figure and matches no source; cheapest sourced is DeepInfra $0.04/$0.10 (LiteLLM 2026-07-24) - output price UNSOURCED")


# ---------------------------------------------------------------------------------------------------------------
# Additions of issue 13 (models released since the catalog was built). Every shape value is read from the cited
# config copy; published counts only where the source states them, else null with the reason in notes.
# ---------------------------------------------------------------------------------------------------------------
MEGATRON_GLM = "NVIDIA-NeMo/Megatron-Bridge@f98012ad0c93048771245536c510a04d0980b981:docs/models/llm/glm45.md"
VIME_GLM = "vllm-project/vime@b332ffc2c80e204ad520f93daa0aa7d1e65294d8:scripts/models/"
NOT_REFETCHED = "published count as the model card states it (not re-fetched in this environment)"


def add_models_2026():
    A = ADDED.append
    # --- Qwen3 2507 MoE updates: same Qwen3MoeForCausalLM shapes, 262,144 native context
    for kind in ("Instruct", "Thinking"):
        A(base(f"Qwen/Qwen3-235B-A22B-{kind}-2507", f"Qwen3 235B A22B {kind} 2507", "Qwen3", "Apache-2.0", "qwen3moe",
               94, 4096, 0, 64, 4, 151936, False, 262144, head_dim=128, qk_norm=True, moe=moe(128, 8, 1536),
               pub=235.0, pub_active=22.0,
               sources=[LITGPT + " (entry 'Qwen3-235B-A22B-{}-2507'; cites https://huggingface.co/Qwen/Qwen3-235B-A22B-Thinking-2507/blob/main/config.json: "
                                 "block_size 262144, 94 layers, 64 Q / 4 KV heads, head_size 128, 128 experts, 8 per token, moe_intermediate_size 1536, padded_vocab_size 151936)",
                        MAXTEXT_HF + " (qwen3_235b_a22b_thinking_2507_config: max_position_embeddings 262144, tie_word_embeddings False)",
                        f"published params: https://huggingface.co/Qwen/Qwen3-235B-A22B-{kind}-2507 (model card: '235B in total and 22B activated'; {NOT_REFETCHED})"],
               notes=["HF intermediate_size 12288 unused (every layer MoE); intermediate_size 0",
                      "litgpt's one entry covers the Instruct and Thinking releases (name template '{}-2507'): same shapes"]))
    A(base("Qwen/Qwen3-30B-A3B-Thinking-2507", "Qwen3 30B A3B Thinking 2507", "Qwen3", "Apache-2.0", "qwen3moe",
           48, 2048, 0, 32, 4, 151936, False, 262144, head_dim=128, qk_norm=True, moe=moe(128, 8, 768),
           pub=30.5, pub_active=3.3,
           sources=[MAXTEXT_HF + " (qwen3_30b_a3b_thinking_2507_config: 48 layers, hidden 2048, 32 Q / 4 KV heads, head_dim 128, "
                                 "128 experts, 8 per token, moe_intermediate_size 768, vocab 151936, max_position_embeddings 262144, tie False)",
                    LITGPT + " (entry 'Qwen3-30B-A3B-{}-2507'; cites https://huggingface.co/Qwen/Qwen3-30B-A3B-Thinking-2507/blob/main/config.json)",
                    f"published params: https://huggingface.co/Qwen/Qwen3-30B-A3B-Thinking-2507 (model card: '30.5B in total and 3.3B activated'; {NOT_REFETCHED})"],
           notes=["HF intermediate_size 6144 unused (every layer MoE); intermediate_size 0"]))
    # --- Phi-4 reasoning releases (Phi3ForCausalLM, llama.cpp phi3: fused qkv and gate/up)
    for mid, name in (("microsoft/Phi-4-reasoning", "Phi-4 reasoning"), ("microsoft/Phi-4-reasoning-plus", "Phi-4 reasoning plus")):
        entry = mid.split("/")[1]
        A(base(mid, name, "Phi-4", "MIT", "phi3", 40, 5120, 17920, 40, 10, 100352, False, 32768, pub=14.7,
               sources=[LITGPT + f" (entry '{entry}'; cites https://huggingface.co/{mid}/blob/main/config.json: 40 layers, n_embd 5120, "
                                 "40 Q / 10 KV heads, intermediate 17920, vocab 100352, block_size 32768, rope_base 500000)",
                        "published params: same architecture as microsoft/phi-4 (14.7B, this catalog's phi-4 entry); the reasoning cards say '14B'"],
               notes=["fine-tune of phi-4 with the context raised to 32k (rope_theta 500000); tie_embeddings false as phi-4"]))
    A(base("microsoft/Phi-4-mini-reasoning", "Phi-4 mini reasoning", "Phi-4", "MIT", "phi3",
           32, 3072, 8192, 24, 8, 200064, True, 131072, rope_scaling="longrope", pub=3.8,
           sources=[LITGPT + " (entry 'Phi-4-mini-reasoning'; cites https://huggingface.co/microsoft/Phi-4-mini-reasoning/blob/main/config.json: "
                             "32 layers, n_embd 3072, 24 Q / 8 KV heads, intermediate 8192, padded_vocab_size 200064, block_size 131072, rotary_percentage 0.75)",
                    "published params: https://huggingface.co/microsoft/Phi-4-mini-reasoning (model card: '3.8B parameters'; " + NOT_REFETCHED + ")"],
           notes=["same shapes as Phi-4-mini-instruct (tie_embeddings true as there - not in the litgpt entry; UNSURE)",
                  "partial rotary (75% of head_dim); HF sliding_window 262145 exceeds the context, so no SWA"]))
    # --- NVIDIA Nemotron (Llama-3.1 70B fine-tune; LlamaForCausalLM)
    A(base("nvidia/Llama-3.1-Nemotron-70B-Instruct-HF", "Llama 3.1 Nemotron 70B Instruct", "Nemotron", "Llama-3.1 Community", "llama",
           80, 8192, 28672, 64, 8, 128256, False, 131072, rope_scaling="llama3", pub=70.0,
           sources=[LITGPT + " (entry 'Llama-3.1-Nemotron-70B-Instruct-HF': block_size 131072, padded_vocab_size 128256, 80 layers, n_embd 8192, "
                             "64 Q / 8 KV heads, intermediate 28672, rope_base 500000, llama3 rope_adjustments factor 8)",
                    "published params: model name ('70B'; Llama-3.1-70B base)"],
           notes=["same shapes as meta-llama/Llama-3.1-70B-Instruct"]))
    # --- Mistral: Devstral Small 1.1 (text-only Mistral Small 3.1 backbone) and Ministral 3 3B
    FW_DEV = DEVSTRAL_MIRROR
    A(base("mistralai/Devstral-Small-2507", "Devstral Small 1.1 (2507)", "Mistral", "Apache-2.0", "llama",
           40, 5120, 32768, 32, 8, 131072, False, 131072, head_dim=128, pub=23.57,
           sources=[FW_DEV + "params.json (mirror of the Hub repo: dim 5120, n_layers 40, head_dim 128, hidden_dim 32768, n_heads 32, "
                             "n_kv_heads 8, rope_theta 1e9, vocab_size 131072)",
                    FW_DEV + "model.safetensors.index.json (lm_head.weight present = untied; metadata total_parameters 23,572,403,200)",
                    "fetchwiki/mistralai-Devstral-Small-2507@7990bde725e588714cc78eb100baf68aa2d5425c:README.md ('Context Window: A 128k context window'; "
                    "fine-tuned from Mistral-Small-3.1 with the vision encoder removed)",
                    "published params: total_parameters 23,572,403,200 in model.safetensors.index.json (above)"],
           notes=["llama.cpp converts MistralForCausalLM as 'llama' (convert_hf_to_gguf); text-only, so no vision tensors",
                  "native_context 131072 per the card ('128k'); the mirror has no config.json, so max_position_embeddings was not read"]))
    A(base("mistralai/Ministral-3-3B-Instruct-2512", "Ministral 3 3B Instruct 2512", "Mistral", "Apache-2.0", "mistral3",
           26, 3072, 9216, 32, 8, 131072, True, 262144, head_dim=128, rope_scaling="yarn",
           sources=[MLC + " (MODEL_PRESETS['ministral3_3b_2512'] text_config: 26 layers, hidden 3072, intermediate 9216, 32 Q / 8 KV heads, "
                          "head_dim 128, vocab 131072, tie_word_embeddings True, max_position_embeddings 262144 with yarn factor 16 over 16384)"],
           notes=["multimodal release (Pixtral vision encoder, 24 layers x 1024, not counted); llama.cpp arch 'mistral3'",
                  "native_context 262144 = the shipped config's max_position_embeddings (YaRN factor 16 over 16384 is part of the shipped config)",
                  "the preset names the 3B 2512 shapes; the Instruct id is assumed (Base and Reasoning 2512 releases share the shapes)",
                  "published count not recorded (the card's 3B/3.4B figure includes or excludes the vision encoder: not re-fetched)"]))
    B70 = "Arc Pro B70 llama.cpp Vulkan benchmark notes (public code file id 55913994130, repo not named by the index)"
    A(base("mistralai/Mistral-Small-3.2-24B-Instruct-2506", "Mistral Small 3.2 24B Instruct 2506", "Mistral", "Apache-2.0", "llama",
           40, 5120, 32768, 32, 8, 131072, False, 131072, head_dim=128, pub=23.57,
           sources=[DEVSTRAL_MIRROR + "params.json (the Mistral-Small-3.1 text backbone, which 3.2 updates: dim 5120, 40 layers, hidden_dim 32768, "
                                      "32/8 heads, head_dim 128, vocab 131072)",
                    "row f0098 of assets/calibration/llamacpp_speed_2025.jsonl: llama-bench on Mistral-Small-3.2-24B-Instruct-2506 Q4_K_M prints "
                    "'llama 13B Q4_K - Medium', 23.57 B params, 13.34 GiB (" + B70 + ")",
                    "published params: llama-bench's params column 23.57 B for the GGUF (row f0098)"],
           notes=["multimodal release (Pixtral vision encoder in a separate mmproj file, not counted)",
                  "text shapes taken from the 3.1 backbone (Devstral Small 1.1 params.json); the GGUF's 23.57 B params agree; no 2506 config.json was read"]))
    A(base("deepseek-ai/DeepSeek-R1-Distill-Qwen-14B", "DeepSeek R1 Distill Qwen 14B", "DeepSeek-R1-Distill", "MIT (Qwen2.5 base, Apache-2.0)", "qwen2",
           48, 5120, 13824, 40, 8, 152064, False, 131072, qkv_bias=True, pub=14.77,
           sources=[MAXTEXT_HF + " (qwen25_14b_config: the Qwen2.5-14B base shapes: 48 layers, hidden 5120, intermediate 13824, 40/8 heads, "
                                 "vocab 152064, tie False, attention_bias True)",
                    "deepseek-ai/DeepSeek-R1@0cf78561f1d51c84a21b2190626b21116d5c68bb:README.md (distill table: base model Qwen2.5-14B)",
                    "row f0090 of assets/calibration/llamacpp_speed_2025.jsonl: llama-bench prints 'qwen2 14B Q4_K - Medium', 14.77 B params, 8.37 GiB (" + B70 + ")",
                    "published params: llama-bench's params column 14.77 B for the GGUF (row f0090)"],
           notes=["native_context 131072 = the distill's max_position_embeddings (as the 32B distill in this catalog); the base Qwen2.5-14B ships 32768"]))
    # --- SmolLM3 (llama.cpp smollm3: llama layout, NoPE every 4th layer)
    A(base("HuggingFaceTB/SmolLM3-3B", "SmolLM3 3B", "SmolLM3", "Apache-2.0", "smollm3",
           36, 2048, 11008, 16, 4, 128256, True, 65536, head_dim=128, extended_context=131072, rope_scaling="yarn",
           sources=["fetchwiki/HuggingFaceTB-SmolLM3-3B@24f7882f92998ee0e691d105ade637afc3e5171f:config.json (mirror of the Hub config: SmolLM3ForCausalLM, "
                    "36 layers, hidden 2048, intermediate 11008, 16 Q / 4 KV heads, vocab 128256, max_position_embeddings 65536, rope_theta 5e6, "
                    "no_rope_layer_interval 4)",
                    "huggingface/blog:smollm3.md ('Long context up to 128k with NoPE and using YaRN')"],
           notes=["tie_embeddings true: the config omits tie_word_embeddings and SmolLM3Config defaults to tied (engine/model/hf_config.cpp table)",
                  "NoPE on every 4th layer changes no tensor or cache size",
                  "published count not recorded (the card says '3B', rounded)"]))
    # --- GLM-4.5 family (Glm4MoeForCausalLM, llama.cpp glm4moe)
    A(base("zai-org/GLM-4.5-Air", "GLM-4.5 Air", "GLM-4.5", "MIT", "glm4moe",
           46, 4096, 10944, 96, 8, 151552, False, 131072, head_dim=128, qkv_bias=True,
           moe=moe(128, 8, 1408, shared=1, sffn=1408, first=1, bias=True), pub=106.0, pub_active=12.0,
           sources=[MEGATRON_GLM + " (GLM 4.5 Air 106B-A12B: 46 layers, first dense, 4096 hidden, 10944 FFN, 96 heads, 8 query groups, "
                                   "128 experts top-8, MoE FFN 1408, shared expert 1408, no QK norm, 131,072 context, vocab 151,552)",
                    VIME_GLM + "glm4.5-106B-A12B.sh (--kv-channels 128, --add-qkv-bias, --untie-embeddings-and-output-weights, "
                               "--rotary-percent 0.5, --moe-router-enable-expert-bias)",
                    "published params: " + MEGATRON_GLM + " ('106B total parameters, 12B active per token')"],
           notes=["head_dim 128 x 96 heads = 12288 (q/k/v widths differ from hidden 4096); partial rotary 0.5",
                  "router_bias: sigmoid router with expert-score correction bias",
                  "the MTP (NextN) layer (num_nextn_predict_layers 1) is not counted; llama.cpp's GLM-4.5 GGUFs carry it as one more block",
                  "measured: llama-bench prints 110.47 B params for a published GGUF (benchmarking doc, public code file id 59459646521) = "
                  "the 106.85 B here + 3.62 B for the NextN block (attention, 128 experts, eh_proj, its own embedding and head copies; "
                  "tests/engine/test_catalog_sizes.cpp), so real files hold ~3.4 % more weights than this entry's estimate"]))
    A(base("zai-org/GLM-4.5", "GLM-4.5", "GLM-4.5", "MIT", "glm4moe",
           92, 5120, 12288, 96, 8, 151552, False, 131072, head_dim=128, qkv_bias=True, qk_norm=True,
           moe=moe(160, 8, 1536, shared=1, sffn=1536, first=3, bias=True), pub=355.0, pub_active=32.0,
           sources=[MEGATRON_GLM + " (GLM 4.5 355B-A32B: 92 layers, first 3 dense, 5120 hidden, 12288 FFN, 96 heads, 8 query groups, "
                                   "160 experts top-8, MoE FFN 1536, shared expert 1536, QK LayerNorm, 131,072 context, vocab 151,552)",
                    "zyzshishui/slime@ffec53408dc6eac7ed6af9a17dc090e0458a7260:scripts/models/glm4.5-355B-A32B.sh (--kv-channels 128, --qk-layernorm, --add-qkv-bias, --untie-embeddings-and-output-weights)",
                    "published params: " + MEGATRON_GLM + " ('355B total parameters, 32B active per token')"],
           notes=["head_dim 128 x 96 heads = 12288; partial rotary 0.5; QK norm per head",
                  "router_bias: sigmoid router with expert-score correction bias",
                  "the MTP (NextN) layer (num_nextn_predict_layers 1) is not counted; llama.cpp's GLM-4.5 GGUFs carry it as one more block"]))



# ---------------------------------------------------------------------------------------------------------------
# Additions of issue 13 part 3 (catalog12). Values from the cited configs; Q4_K_M weights are checked against published
# GGUF file sizes in the report of the session that added them.
# ---------------------------------------------------------------------------------------------------------------
FS_IDS = "public repo files found by full-text code search (find_string; repo paths not exposed), ids "
GLM47_CFG = "blap/Mod@06d6cd1ef26080025752bc1dc2c6545a3d9177d0:src/inference_pio/models/glm_4_7_flash/config.py"
GLM47_CARD = "nerdpudding/llama_cpp@2a76e8e89d604331380651de9aeb0c1b2d60f2cb:models/documentation/README_modelcard_GLM-4.7-Flash.md"


def add_models_catalog12():
    A = ADDED.append
    # --- GLM-4.7-Flash (Glm4MoeLiteForCausalLM): DeepSeek-V2-style MLA + MoE; llama.cpp converts it as deepseek2
    m = base("zai-org/GLM-4.7-Flash", "GLM-4.7 Flash", "GLM-4.7", "MIT", "deepseek2",
             47, 2048, 10240, 20, 20, 154880, False, 202752, head_dim=256,
             moe=moe(64, 4, 1536, shared=1, first=1, bias=True), pub=30.0, pub_active=3.0,
             sources=[GLM47_CFG + " (fields marked 'from real config': 47 layers, hidden 2048, intermediate 10240, 20 heads, 20 KV heads, "
                                  "vocab 154880, max_position_embeddings 202752, attention_bias False, tie_word_embeddings False, "
                                  "n_routed_experts 64, num_experts_per_tok 4, n_shared_experts 1, moe_intermediate_size 1536, first_k_dense_replace 1, "
                                  "topk_method noaux_tc, q_lora_rank 768, kv_lora_rank 512, qk_nope_head_dim 192, qk_rope_head_dim 64, v_head_dim 256, "
                                  "num_nextn_predict_layers 1, rope_scaling null)",
                      GLM47_CARD + " (unsloth's copy of the zai-org model card: 'GLM-4.7-Flash is a 30B-A3B MoE model'; license mit)",
                      FS_IDS + "69048239204 (unsloth/GLM-4.7-Flash-GGUF@46cbdf738df140a74f50a25b9e23cb8b038ad77b GLM-4.7-Flash-Q4_K_M.gguf: "
                               "exact size 18,312,339,776 bytes, architecture deepseek2, 844 tensors, 47 blocks, 64 experts with 4 used and 1 shared)",
                      "published params: " + GLM47_CARD + " ('30B-A3B')"],
             notes=["model_type glm4_moe_lite: llama.cpp registers Glm4MoeLiteForCausalLM under its DeepseekV2 converter, so the GGUF arch is deepseek2",
                    "head_dim 256 = qk_nope_head_dim 192 + qk_rope_head_dim 64; head_dim_v 256",
                    "router_bias: noaux_tc routing with e_score_correction_bias",
                    "the MTP (NextN) layer (num_nextn_predict_layers 1) is not counted: the published Q4_K_M GGUF has 47 blocks"])
    m["head_dim_v"] = 256
    m["mla"] = {"q_lora_rank": 768, "kv_lora_rank": 512, "qk_rope_head_dim": 64, "qk_nope_head_dim": 192, "v_head_dim": 256}
    A(m)
    # --- ERNIE 4.5 21B A3B (Ernie4_5_MoeForCausalLM, llama.cpp ernie4_5-moe)
    A(base("baidu/ERNIE-4.5-21B-A3B-PT", "ERNIE 4.5 21B A3B", "ERNIE-4.5", "Apache-2.0", "ernie4_5-moe",
           28, 2560, 12288, 20, 4, 103424, True, 131072, head_dim=128, moe=moe(64, 6, 1536, shared=2, first=1),
           pub=21.83, pub_active=3.0,
           sources=[FS_IDS + "70957858900 (a test fixture reproducing the config.json of ERNIE-4.5-21B-A3B: hidden 2560, intermediate 12288, "
                             "moe_intermediate_size 1536, 28 layers, 20 heads, 4 KV heads, head_dim 128, moe_num_experts 64, moe_num_shared_experts 2, "
                             "moe_k 6, moe_layer_start_index 1, moe_layer_end_index 27, moe_layer_interval 1, vocab 103424, tie_word_embeddings True)",
                    FS_IDS + "20156564511 (atb_llm ErniemoeConfig test with the same 21B-A3B values and max_position_embeddings 131072)",
                    FS_IDS + "53143770214 (llama-bench: 'ernie4_5-moe 21B.A3B Q4_K - Medium', 12.51 GiB, 21.83 B params)",
                    "published params: llama-bench's params column 21.83 B (above); the model card's '21B total, 3B activated'"],
           notes=["shared experts: 2 x 1536 (llama.cpp n_ff_shexp = n_ff_exp x n_expert_shared)",
                  "the -PT (PyTorch weights) repo is the one llama.cpp converts; the -Thinking-2507 release shares the shapes"]))
    # --- Hunyuan-A13B (HunYuanMoEV1ForCausalLM, llama.cpp hunyuan-moe): every layer MoE with one shared expert
    A(base("tencent/Hunyuan-A13B-Instruct", "Hunyuan A13B Instruct", "Hunyuan", "Tencent Hunyuan Community", "hunyuan-moe",
           32, 4096, 0, 32, 8, 128167, True, 262144, head_dim=128, qk_norm=True, moe=moe(64, 8, 3072, shared=1),
           pub=80.39, pub_active=13.0,
           sources=[FS_IDS + "57983092879 (HUNYUAN_MOE_LIST_CONFIG, the list form of Hunyuan-A13B's config.json: hidden 4096, 32 layers, "
                             "32 heads, 8 KV heads, head_dim 128, intermediate_size 3072, vocab 128167, num_experts 64, moe_intermediate_size [3072]*32, "
                             "moe_topk [8]*32, num_shared_expert [1]*32)",
                    "tianyu1412/Hunyuan-A13B@1d48755d61bad2fbb606ba4d51518a596ca0501d:README_CN.md (mirror of Tencent's README: 80 B total / 13 B active, 32 layers, 32 heads, 1 shared + 64 routed experts, top-8, hidden 4096, expert width 3072, 256K context)",
                    FS_IDS + "4647524032 (llama-bench: 'hunyuan-moe A13B Q4_K - Medium', 45.43 GiB, 80.39 B params)",
                    "published params: llama-bench's params column 80.39 B (above; the untied count would be 80.92 B, so the embeddings are tied)"],
           notes=["tie_embeddings true: llama-bench's 80.39 B equals the tied count (engine/model/arch_table.cpp also defaults hunyuan_v1_moe to tied)",
                  "QK norm per head (query_layernorm / key_layernorm); RoPE with NTK-alpha scaling changes no tensor or cache size",
                  "intermediate_size 3072 in the config is the shared expert's width; every layer is MoE, so the dense FFN width is 0"]))
    # --- Qwen2.5-VL 7B: the text decoder (the vision tower ships in a separate mmproj GGUF)
    QWEN25VL_GRAPH = "acproject/duorou@0362c275e841b3ce549a941db4a8f776d60266bd:docs/qwen2.5vl_graph.md"
    A(base("Qwen/Qwen2.5-VL-7B-Instruct", "Qwen2.5-VL 7B Instruct (text decoder)", "Qwen2.5-VL", "Apache-2.0", "qwen2",
           28, 3584, 18944, 28, 4, 152064, False, 128000, qkv_bias=True, pub=7.62,
           sources=[QWEN25VL_GRAPH + " (Qwen2_5_VLForConditionalGeneration module print: embed_tokens 152064 x 3584, 28 decoder layers, "
                                     "q_proj 3584->3584 / k_proj, v_proj 3584->512 with bias, o_proj without, MLP 18944, separate lm_head 3584->152064; "
                                     "visual: 32 ViT blocks of 1280 plus the merger)",
                    "xorbitsai/inference@06dcb9f388d23bc3e454ecf9e6c8531332731d23:doc/source/models/builtin/llm/qwen2.5-vl-instruct.rst (Context Length 128000; Qwen/Qwen2.5-VL-7B-Instruct)",
                    "published params: the text decoder has the shapes of Qwen/Qwen2.5-7B-Instruct in this catalog (7.62 B); the release's '7B' "
                    "also counts the ~0.67 B vision tower"],
           notes=["text decoder only: llama.cpp converts it to a text GGUF (arch 'qwen2vl': qwen2's tensors with M-RoPE sections, "
                  "same sizes as qwen2) plus an mmproj GGUF for the vision tower, which this entry does not count",
                  "head_dim 128 = 3584 / 28; KV heads 4 (k_proj 512 = 4 x 128)"]))
    # --- Qwen2.5-Omni 7B / 3B: the thinker's text decoder (vision and audio towers ship in one mmproj GGUF, type
    # qwen2.5o; engine/audio has the audio encoder). Issue 16 (audio projectors).
    OMNI_CFG = FS_IDS + "65859722544 (transformers configuration_qwen2_5_omni.py, checkpoint Qwen/Qwen2.5-Omni-7B: Qwen2_5OmniTextConfig "
    OMNI_CFG_3B = FS_IDS + "53306828262 (a Qwen2.5-Omni-3B port's config dataclasses: Qwen2_5OmniTextConfig "
    A(base("Qwen/Qwen2.5-Omni-7B", "Qwen2.5-Omni 7B (thinker text decoder)", "Qwen2.5-Omni", "Apache-2.0", "qwen2",
           28, 3584, 18944, 28, 4, 152064, False, 32768, qkv_bias=True,
           sources=[OMNI_CFG + "vocab 152064, hidden 3584, intermediate 18944, 28 layers, 28 heads, 4 KV heads, max_position_embeddings 32768; "
                               "Qwen2_5OmniThinkerConfig tie_word_embeddings False; Qwen2_5OmniAudioEncoderConfig output_dim 3584)"],
           notes=["text decoder only: llama.cpp converts the thinker to a text GGUF plus an mmproj GGUF (projector qwen2.5o) holding "
                  "the vision and audio towers, which this entry does not count; the talker / token2wav (speech output) are not run by llama.cpp",
                  "q/k/v bias as Qwen2 (the thinker's decoder is Qwen2.5-7B's); head_dim 128 = 3584 / 28",
                  "published count not recorded (the card's 7B counts the towers and the talker)"]))
    A(base("Qwen/Qwen2.5-Omni-3B", "Qwen2.5-Omni 3B (thinker text decoder)", "Qwen2.5-Omni", "Qwen-Research", "qwen2",
           36, 2048, 11008, 16, 2, 151936, False, 32768, qkv_bias=True,
           sources=[OMNI_CFG_3B + "vocab 151936, hidden 2048, intermediate 11008, 36 layers, 16 heads, 2 KV heads, max_position_embeddings 32768, "
                                  "tie_word_embeddings False; Qwen2_5OmniAudioEncoderConfig output_dim 2048)"],
           notes=["text decoder only (see Qwen2.5-Omni 7B): the mmproj GGUF (qwen2.5o) holds the vision and audio towers",
                  "q/k/v bias as Qwen2; head_dim 128 = 2048 / 16",
                  "license: Qwen-Research as the Qwen2.5-3B release (not re-read for the Omni card)",
                  "published count not recorded"]))
    # --- Seed-OSS-36B (SeedOssForCausalLM, llama.cpp seed_oss): dense GQA with q/k/v bias
    SEED_README = "ByteDance-Seed/seed-oss@02d7aaaa998a311582b2a74e2b02bd1b68c92461:README.md"
    A(base("ByteDance-Seed/Seed-OSS-36B-Instruct", "Seed-OSS 36B Instruct", "Seed-OSS", "Apache-2.0", "seed_oss",
           64, 5120, 27648, 80, 8, 155136, False, 524288, head_dim=128, qkv_bias=True, pub=36.0,
           sources=[SEED_README + " (Model Summary: 64 layers, QKV heads 80 / 8 / 8, head size 128, hidden size 5120, vocabulary 155K, "
                                  "context length 512K, RoPE base 1e7; Apache-2.0)",
                    FS_IDS + "2461084850 (transformers SeedOssConfig, 'defaults will yield a similar configuration to that of the SeedOss-36B': "
                             "vocab_size 155136, intermediate_size 27648, num_hidden_layers 64, num_attention_heads 80, num_key_value_heads 8, "
                             "head_dim 128, max_position_embeddings 524288, tie_word_embeddings False, attention_bias True, attention_out_bias False, mlp_bias False)",
                    "published params: " + SEED_README + " ('Parameters 36B')"],
           notes=["hidden_size 5120 from the README (the transformers class default is 4096; its other defaults match the README's table)",
                  "intermediate_size 27648 and vocab 155136 are the config class defaults, which the class says mirror Seed-OSS-36B; "
                  "the shipped config.json was not read (UNSURE)"]))
    # --- Magistral Small 1.0 (2506): reasoning fine-tune of the Mistral Small 3.1 text backbone (llama.cpp llama)
    MAGISTRAL_CARD = "WillIsback/sportsee@6236c44607df2c96e936770712acde78e1ebecfe:docs/magistral-small.md"
    A(base("mistralai/Magistral-Small-2506", "Magistral Small 1.0 (2506)", "Mistral", "Apache-2.0", "llama",
           40, 5120, 32768, 32, 8, 131072, False, 131072, head_dim=128, pub=23.57,
           sources=[MAGISTRAL_CARD + " (copy of the model card: 'Building upon Mistral Small 3.1 (2503) ... 24B parameters'; "
                                     "'A 128k context window, but performance might degrade past 40k'; Apache 2.0)",
                    DEVSTRAL_MIRROR + "params.json (the Mistral-Small-3.1 text backbone: dim 5120, 40 layers, hidden_dim 32768, 32/8 heads, "
                                      "head_dim 128, vocab 131072)",
                    "published params: the Mistral Small 3.1 text backbone's 23,572,403,200 (Devstral Small 1.1 model.safetensors.index.json, "
                    "same shapes); the card says '24B'"],
           notes=["text-only release (no vision encoder); shapes taken from the Mistral Small 3.1 backbone, its config.json was not read",
                  "native_context 131072 per the card; Mistral recommends a 40k maximum model length for quality"]))


# ---------------------------------------------------------------------------------------------------------------
# release_format: the format the authors publish the weights in, and the catalog file type that matches it (the
# page opens at that file type). Only models whose published format is sourced here carry one; the rest open at
# llama.cpp's -hf default (Q4_K_M) and have release_format null.
#   MXFP4 -> MXFP4_MOE: llama.cpp keeps the shipped MXFP4 experts as they are (ggml-org/gpt-oss-*-GGUF; llama-bench
#            prints the file as "gpt-oss 120B MXFP4 MoE").
#   FP8   -> Q8_0: the GGUF file type closest to FP8 e4m3 with 128x128 block scales (8.5 vs ~8.0 bits per weight);
#            llama.cpp does not load FP8 (convert_hf_to_gguf dequantises it).
# ---------------------------------------------------------------------------------------------------------------
KYUZ0 = "github:kyuz0/amd-strix-halo-toolboxes@d1a34bee09:benchmark/results/"
GPT_OSS_MXFP4 = ("MoE expert weights shipped in MXFP4: openai/gpt-oss@7b583341fe16729127f6d5b94a7b09ccae97e1a1:README.md "
                 "(the maxtext copy of config.json drops quantization_config)")
RELEASE = {
    "openai/gpt-oss-20b": ("MXFP4", "MXFP4_MOE",
        GPT_OSS_MXFP4 + "; llama-bench prints "
        "'gpt-oss 20B MXFP4 MoE' 11.27 GiB for the published GGUF (" + KYUZ0 + "gpt-oss-20b-mxfp4__rocm-7_2_3__fa1.log, "
        "row s1033 of assets/calibration/llamacpp_speed.jsonl)"),
    "openai/gpt-oss-120b": ("MXFP4", "MXFP4_MOE",
        GPT_OSS_MXFP4 + "; llama-bench prints "
        "59.02 GiB for gpt-oss-120b-mxfp4-00001-of-00003.gguf (" + KYUZ0 + "gpt-oss-120b-mxfp4-00001-of-00003__rocm-7_2_3__fa1.log, "
        "row s1021 of assets/calibration/llamacpp_speed.jsonl)"),
    "deepseek-ai/DeepSeek-V3": ("FP8", "Q8_0",
        "deepseek-ai/DeepSeek-V3 README_WEIGHTS.md ('quantization_config: Describes the configuration for FP8 quantization'; "
        "copy at tenstorrent/tt-metal:models/demos/deepseek_v3/reference/README_WEIGHTS.md); "
        "https://huggingface.co/deepseek-ai/DeepSeek-V3/blob/main/config.json quantization_config quant_method fp8, fmt e4m3 "
        "(not re-fetched in this environment)"),
    "deepseek-ai/DeepSeek-R1": ("FP8", "Q8_0",
        "https://huggingface.co/deepseek-ai/DeepSeek-R1/blob/main/config.json quantization_config quant_method fp8, fmt e4m3, "
        "the DeepSeek-V3 checkpoint layout (not re-fetched in this environment)"),
    "moonshotai/Kimi-K2-Instruct": ("FP8", "Q8_0",
        "https://huggingface.co/moonshotai/Kimi-K2-Instruct (model card, Deployment: 'Our model checkpoints are stored in "
        "the block-fp8 format')"),
}


def apply_release_formats(models):
    byid = {m["id"]: m for m in models}
    for m in models:
        m["release_format"] = None
    for mid, (weights, ftype, src) in RELEASE.items():
        byid[mid]["release_format"] = {"weights": weights, "file_type": ftype, "source": src}


SIZE_RE = re.compile(r"(\d+(?:\.\d+)?)[Bb]")


def sort_key(m):
    size = m.get("published_params_b") or check_models.count_params(m) / 1e9
    return (m["family"].lower(), size, m["id"].lower())


# NextN / multi-token-prediction layers the checkpoint ships beside its n_layers (config.json num_nextn_predict_layers;
# Qwen3-Next / Qwen3.5 call it mtp_num_hidden_layers). Not counted in n_layers or the params; engine/spec/mtp.cpp
# sizes them when the user runs them as the draft (llama-server --spec-type draft-mtp). Emitted only when > 0.
NEXTN_ADDED = {
    "zai-org/GLM-4.5-Air": "num_nextn_predict_layers 1 (" + "zai-org/GLM-4.5-Air config.json, as the entry's notes say; "
                           "the published GGUF's 110.47 B params include it: tests/engine/test_catalog_sizes.cpp)",
    "zai-org/GLM-4.5": "num_nextn_predict_layers 1 (zai-org/GLM-4.5 config.json, as the entry's notes say)",
    "zai-org/GLM-4.7-Flash": "num_nextn_predict_layers 1 (" + "blap/Mod@06d6cd1ef26080025752bc1dc2c6545a3d9177d0:"
                             "src/inference_pio/models/glm_4_7_flash/config.py, 'from real config')",
    "Qwen/Qwen3-Next-80B-A3B-Instruct": "one MTP layer (model card 'Multi-Token Prediction (MTP)'; config mtp_num_hidden_layers 1; "
                                        "ggml-org/llama.cpp#25589 loads it as one extra full-attention block)",
}


def apply_nextn_layers(models, ref):
    ref_nextn = {r["id"]: r.get("num_nextn_predict_layers") or 0 for r in ref["models"]}
    for m in models:
        n, src = ref_nextn.get(m["id"], 0), None
        if n:
            src = f"num_nextn_predict_layers {n} (the checkpoint's config.json, as the entry's sources list it)"
        elif m["id"] in NEXTN_ADDED:
            n, src = 1, NEXTN_ADDED[m["id"]]
        if n:
            m["nextn_layers"] = n
            m["notes"].append("nextn_layers " + str(n) + ": " + src)


OLLAMA_TAGS = os.path.join(HERE, "ollama_tags.json")   # sourced in this folder: the reference data has no Ollama names


def apply_ollama_tags(models):
    """Copy each cited Ollama library tag onto its model as "ollama_tags" (tag, file_type, variants, source)."""
    doc = json.load(open(OLLAMA_TAGS))
    by_id = {m["id"]: m for m in models}
    seen = set()
    for t in doc["tags"]:
        if t["model"] not in by_id:
            sys.exit(f"build_models.py: ollama_tags.json: tag {t['tag']} names {t['model']}, which is not in the catalog")
        if t["tag"] in seen:
            sys.exit(f"build_models.py: ollama_tags.json: tag {t['tag']} is listed twice")
        seen.add(t["tag"])
        src = "; ".join(doc["sources"][k] for k in t["sources"])
        row = {"tag": t["tag"], "file_type": t["file_type"], "variants": t.get("variants", []), "source": src}
        if t.get("only_file_type"):   # the page says the library has no other quant of it (gpt-oss: MXFP4 only)
            row["only_file_type"] = True
        by_id[t["model"]].setdefault("ollama_tags", []).append(row)


QUALITY_SCORES = os.path.join(HERE, "quality_scores.json")   # sourced in this folder: published benchmark scores


def apply_quality_scores(models, doc):
    """Copy each cited benchmark score onto its model as "quality"; the benchmarks and the task table go to the top."""
    q = json.load(open(QUALITY_SCORES))
    by_id = {m["id"]: m for m in models}
    metrics = {b["id"]: set(b["metrics"]) for b in q["benchmarks"]}
    for t in q["tasks"]:
        if t["metric"] not in metrics.get(t["benchmark"], ()):
            sys.exit(f"build_models.py: quality_scores.json: task {t['task']} names {t['benchmark']}/{t['metric']}, which is not listed")
    seen = set()
    for r in q["scores"]:
        if r["model"] not in by_id:
            sys.exit(f"build_models.py: quality_scores.json: a score names {r['model']}, which is not in the catalog")
        if (r["model"], r["benchmark"]) in seen or not set(r["scores"]) <= metrics.get(r["benchmark"], set()):
            sys.exit(f"build_models.py: quality_scores.json: {r['model']} {r['benchmark']}: listed twice or an unknown metric")
        seen.add((r["model"], r["benchmark"]))
        row = {k: r[k] for k in ("benchmark", "scores", "date", "source", "note") if k in r}
        by_id[r["model"]].setdefault("quality", []).append(row)
    doc["quality_benchmarks"] = q["benchmarks"]
    doc["quality_tasks"] = q["tasks"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ref", default=os.path.join(HERE, "..", "..", "..", "shared", "reference"),
                    help="reference folder (models.json, prices/api_prices.json); default ../shared/reference from the repo root")
    ap.add_argument("--out", default=os.path.join(HERE, "..", "..", "assets", "catalog", "models.json"))
    a = ap.parse_args()
    for f in ("models.json", os.path.join("prices", "api_prices.json")):
        if not os.path.isfile(os.path.join(a.ref, f)):
            sys.exit(f"build_models.py: {f} not found in the reference folder {os.path.normpath(a.ref)} (pass --ref DIR)")
    ref = json.load(open(os.path.join(a.ref, "models.json")))
    prices = json.load(open(os.path.join(a.ref, "prices", "api_prices.json")))
    models = []
    for r in ref["models"]:
        m = convert_ref(r)
        fix_ref_specific(m, r)
        models.append(m)
    add_models()
    add_models_2026()
    add_models_catalog12()
    for m in ADDED:
        m["notes"].append("license short form from the model card (not re-fetched in this environment)")
    models.extend(ADDED)
    apply_prices(models, prices)
    apply_release_formats(models)
    apply_nextn_layers(models, ref)
    apply_ollama_tags(models)
    for m in models:
        if m["published_active_params_b"] and m["moe"]:
            act = check_models.count_params(m, active=True) / 1e9
            d = 100 * (act - m["published_active_params_b"]) / m["published_active_params_b"]
            if abs(d) > 1.0:
                noemb = act - m["vocab_size"] * m["hidden_size"] / 1e9
                m["notes"].append(f"published active {m['published_active_params_b']}B is a rounded/convention figure: computed active incl. token_embd and output = {act:.2f}B ({d:+.1f}%), without token_embd = {noemb:.2f}B")
        if not m["notes"]:
            m["notes"] = []
        if m["moe"] is None and m["published_active_params_b"]:
            m["published_active_params_b"] = None
    models.sort(key=sort_key)
    doc = {"schema": "llmsim-models/1",
           "generated_by": "scripts/catalog/build_models.py --ref DIR (inputs: the reference data's models.json and prices/api_prices.json, scripts/catalog/ollama_tags.json and quality_scores.json; each value's public source is copied per entry)"}
    apply_quality_scores(models, doc)
    doc["models"] = models
    with open(a.out, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(models)} models to {os.path.normpath(a.out)}")


if __name__ == "__main__":
    main()
