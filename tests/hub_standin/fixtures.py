#!/usr/bin/env python3
"""Fixtures for the Hub stand-in: GGUF headers built with scripts/make_corpus.py's GGUF writer, a safetensors repo,
and the manifest hub_standin.py serves. Writes expected.json with every number the tests assert, computed here from
the tensor lists (ggml's type_traits[]: block size and bytes per block), never by llmsim.

    python3 fixtures.py OUT_DIR

Model shapes are real ones from ../shared/reference/models.json (copied here with their source):
  org/new-model  Llama-3.1-70B-Instruct's shape: 80 layers, hidden 8192, ffn 28672, 64 heads / 8 KV heads,
                 vocab 128256 (reference entry "meta-llama/Llama-3.1-70B-Instruct", source litgpt config.py) -> 723 tensors
  org/st-model   Qwen2.5-0.5B-Instruct: 24 layers, hidden 896, ffn 4864, 14 / 2 heads, vocab 151936 (reference entry
                 "Qwen/Qwen2.5-0.5B-Instruct", litgpt config.py citing huggingface.co/Qwen/Qwen2.5-0.5B config.json)
"""
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from make_corpus import Gguf, GGML, STR, U32, U16, F32, ARR  # noqa: E402

Q4_K, Q6_K, Q8_0, F32T = 12, 14, 8, 0
GATED_TOKEN = "hf_standin_secret_token"


def nbytes(dims, typ):
    block, size = GGML[typ]
    n = 1
    for d in dims:
        n *= d
    return n // block * size


def llama(layers, hidden, ffn, heads, kv_heads, vocab, mat, ftype, split=None, tokens=True):
    """(header bytes, tensor bytes, tensor count, padded data bytes); split = (no, count, first, last)"""
    g = Gguf()
    g.kv("general.architecture", STR, "llama").kv("general.name", STR, "New Model")
    g.kv("general.file_type", U32, ftype).kv("llama.block_count", U32, layers)
    g.kv("llama.context_length", U32, 131072).kv("llama.embedding_length", U32, hidden)
    g.kv("llama.feed_forward_length", U32, ffn).kv("llama.attention.head_count", U32, heads)
    g.kv("llama.attention.head_count_kv", U32, kv_heads).kv("llama.rope.freq_base", F32, 500000.0)
    first, last = 0, layers - 1
    no, count = 1, 1
    if split:
        no, count, first, last = split
        g.kv("split.no", U16, no - 1).kv("split.count", U16, count)
    if tokens and no == 1:
        g.kv("tokenizer.ggml.model", STR, "gpt2")
        g.kv("tokenizer.ggml.tokens", ARR, (STR, ["tok%d" % i for i in range(vocab)]))
    hd = hidden // heads
    down = Q6_K if mat == Q4_K else mat
    ts = []
    if no == 1:
        ts.append(("token_embd.weight", [hidden, vocab], mat))
    for l in range(first, last + 1):
        p = "blk.%d." % l
        ts += [(p + "attn_norm.weight", [hidden], F32T), (p + "attn_q.weight", [hidden, hidden], mat),
               (p + "attn_k.weight", [hidden, hd * kv_heads], mat), (p + "attn_v.weight", [hidden, hd * kv_heads], down),
               (p + "attn_output.weight", [hidden, hidden], mat), (p + "ffn_norm.weight", [hidden], F32T),
               (p + "ffn_gate.weight", [hidden, ffn], mat), (p + "ffn_up.weight", [hidden, ffn], mat),
               (p + "ffn_down.weight", [ffn, hidden], down)]
    if no == count:
        ts += [("output_norm.weight", [hidden], F32T), ("output.weight", [hidden, vocab], Q6_K)]
    for name, dims, typ in ts:
        g.tensor(name, dims, typ)
    header = g.build(data=False)
    tensor_bytes = sum(nbytes(d, t) for _, d, t in ts)
    padded = sum((nbytes(d, t) + 31) // 32 * 32 for _, d, t in ts)
    return header, tensor_bytes, len(ts), padded


def safetensors(tensors):
    """(header bytes: 8-byte length + JSON, data bytes) for BF16 tensors"""
    j, off = {"__metadata__": {"format": "pt"}}, 0
    for name, shape in tensors:
        n = 2
        for d in shape:
            n *= d
        j[name] = {"dtype": "BF16", "shape": shape, "data_offsets": [off, off + n]}
        off += n
    text = json.dumps(j).encode()
    return struct.pack("<Q", len(text)) + text, off


def main(out):
    os.makedirs(out, exist_ok=True)
    repos, expected = {}, {"gated_token": GATED_TOKEN}

    def put(name, data):
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
        return name

    # org/new-model: a 70B-shaped GGUF repo, Q4_K_M in one file, Q8_0 split in two
    files = {"README.md": {"text": "# new-model\n"}}
    h, tb, nt, padded = llama(80, 8192, 28672, 64, 8, 128256, Q4_K, 15)
    files["new-model-Q4_K_M.gguf"] = {"head": put("q4.bin", h), "size": len(h) + padded}
    expected["q4_k_m"] = {"tensor_bytes": tb, "n_tensors": nt, "header_bytes": len(h), "file_bytes": len(h) + padded}
    shards = []
    for no, (a, b) in enumerate([(0, 39), (40, 79)], 1):
        h, tb, nt, padded = llama(80, 8192, 28672, 64, 8, 128256, Q8_0, 7, split=(no, 2, a, b))
        p = "Q8_0/new-model-Q8_0-%05d-of-00002.gguf" % no
        files[p] = {"head": put("q8_%d.bin" % no, h), "size": len(h) + padded}
        shards.append({"tensor_bytes": tb, "n_tensors": nt, "file_bytes": len(h) + padded})
    expected["q8_0"] = {"tensor_bytes": sum(s["tensor_bytes"] for s in shards), "n_tensors": sum(s["n_tensors"] for s in shards),
                        "file_bytes": sum(s["file_bytes"] for s in shards)}
    files["mmproj-F16.gguf"] = {"text": "not the language model"}
    repos["org/new-model"] = {"pipeline_tag": "text-generation", "license": "llama3.1", "files": files}
    expected["license"] = "llama3.1"
    # the same files behind a tree listing of 2,502 entries (sizes only in the tree, 1,000 a page like the Hub):
    # three pages, the GGUF files on the last
    repos["org/many-files"] = {"pipeline_tag": "text-generation", "blobs": False, "filler_files": 2500,
                               "files": {k: v for k, v in files.items() if k != "mmproj-F16.gguf" and not k.startswith("Q8_0")}}
    repos["org/many-files"]["files"]["README.md"] = {"text": "# many\n"}
    expected["many_files"] = {"listed": 2500 + 2, "pages": 3}
    # a listing whose next page is on another origin (the storage's): never followed
    repos["org/foreign-link"] = dict(repos["org/many-files"], link_origin="cdn")
    # the storage does not expose Content-Range to a page: the browser falls back to the file list's sizes
    repos["org/hidden-range"] = {"pipeline_tag": "text-generation", "hide_content_range": True,
                                 "files": {k: v for k, v in files.items() if not k.startswith("Q8_0")}}
    # every storage answer held 3 s: a lookup cancelled in between
    repos["org/slow-model"] = {"pipeline_tag": "text-generation", "delay_s": 3, "files": dict(files)}

    # org/gated-model: a small GGUF behind a licence
    h, tb, nt, padded = llama(4, 1024, 2816, 16, 4, 2000, Q4_K, 15)
    repos["org/gated-model"] = {"pipeline_tag": "text-generation", "gated": "manual", "token": GATED_TOKEN,
                                "files": {"gated-model-Q4_K_M.gguf": {"head": put("gated.bin", h), "size": len(h) + padded}}}
    expected["gated"] = {"tensor_bytes": tb}
    repos["org/limited"] = {"rate_limited": 42, "files": {}}
    repos["org/limited-ratelimit"] = {"rate_limited": 17, "no_retry_after": True, "files": {}}
    repos["org/image-model"] = {"pipeline_tag": "text-to-image", "files": {"model.safetensors": {"text": "x"}}}

    # org/st-model: safetensors in two shards, Qwen2.5-0.5B's config
    cfg = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 896, "intermediate_size": 4864,
           "num_hidden_layers": 24, "num_attention_heads": 14, "num_key_value_heads": 2, "vocab_size": 151936,
           "max_position_embeddings": 32768, "rope_theta": 1000000.0, "tie_word_embeddings": True, "torch_dtype": "bfloat16"}
    t1 = [("model.embed_tokens.weight", [151936, 896]), ("model.norm.weight", [896])]
    t2 = [("model.layers.%d.mlp.down_proj.weight" % l, [896, 4864]) for l in range(24)]
    s1, d1 = safetensors(t1)
    s2, d2 = safetensors(t2)
    index = {"metadata": {"total_size": d1 + d2}, "weight_map": {}}
    for n, _ in t1:
        index["weight_map"][n] = "model-00001-of-00002.safetensors"
    for n, _ in t2:
        index["weight_map"][n] = "model-00002-of-00002.safetensors"
    repos["org/st-model"] = {"pipeline_tag": "text-generation", "files": {
        "config.json": {"text": json.dumps(cfg)}, "model.safetensors.index.json": {"text": json.dumps(index)},
        "model-00001-of-00002.safetensors": {"head": put("st1.bin", s1), "size": len(s1) + d1},
        "model-00002-of-00002.safetensors": {"head": put("st2.bin", s2), "size": len(s2) + d2}}}
    expected["safetensors_bytes"] = d1 + d2

    with open(os.path.join(out, "manifest.json"), "w") as f:
        json.dump({"repos": repos}, f, indent=1)
    with open(os.path.join(out, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
