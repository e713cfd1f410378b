#!/usr/bin/env python3
"""Small GGUF fixtures for the Vision section's mmproj picker (tests/e2e/e2e.mjs), written with
scripts/make_corpus.py's GGUF writer:
  mmproj-tiny-gemma3.gguf  an mmproj header (general.architecture = clip, projector gemma3 with Gemma 3's encoder
                           keys) over a few small F16 / F32 / Q8_0 tensors, zero data
  tiny-text.gguf           a text model (tiny llama), which the Vision section must refuse
Prints JSON: the file names and the mmproj's tensor bytes, summed here from ggml's type_traits (F32 4 bytes,
F16 2 bytes, Q8_0 34 bytes per 32 weights) -- every tensor is a multiple of 32 bytes, so no alignment padding.
  python3 tests/e2e/make_mmproj.py OUT_DIR
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from make_corpus import Gguf, STR, U32, tiny_llama  # noqa: E402

F32, F16, Q8_0 = 0, 1, 8
BYTES = {F32: lambda n: 4 * n, F16: lambda n: 2 * n, Q8_0: lambda n: n // 32 * 34}

# name, dims (ggml order), type
TENSORS = [
    ("v.patch_embd.weight", [14, 14, 3, 64], F16),
    ("v.position_embd.weight", [64, 256], F32),
    ("v.blk.0.attn_q.weight", [64, 64], Q8_0),
    ("v.blk.0.ffn_up.weight", [64, 128], Q8_0),
    ("v.blk.0.ln1.weight", [64], F32),
    ("mm.input_projection.weight", [64, 256], F16),
]


def mmproj():
    g = Gguf()
    g.kv("general.architecture", STR, "clip").kv("general.name", STR, "Tiny Gemma 3 mmproj")
    g.kv("clip.projector_type", STR, "gemma3")
    # Gemma 3's SigLIP encoder keys (ggml-org/gemma-3-4b-it-GGUF mmproj): 27 x 1152, ffn 4304, 16 heads, 14 px, 896 px
    for k, v in [("block_count", 27), ("embedding_length", 1152), ("feed_forward_length", 4304),
                 ("attention.head_count", 16), ("patch_size", 14), ("projection_dim", 2560), ("image_size", 896)]:
        g.kv("clip.vision." + k, U32, v)
    total = 0
    for name, dims, typ in TENSORS:
        g.tensor(name, dims, typ)
        n = 1
        for d in dims:
            n *= d
        b = BYTES[typ](n)
        assert b % 32 == 0, name
        total += b
    return g.build(), total


def main(out):
    os.makedirs(out, exist_ok=True)
    data, total = mmproj()
    with open(os.path.join(out, "mmproj-tiny-gemma3.gguf"), "wb") as f:
        f.write(data)
    with open(os.path.join(out, "tiny-text.gguf"), "wb") as f:
        f.write(tiny_llama().build())
    print(json.dumps({"mmproj": "mmproj-tiny-gemma3.gguf", "text": "tiny-text.gguf", "mmproj_tensor_bytes": total}))


if __name__ == "__main__":
    main(sys.argv[1])
