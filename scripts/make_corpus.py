#!/usr/bin/env python3
"""Generate the malformed-input corpus for `llmsim-cli import` and the fuzzers' seed corpora.

Pure Python 3, no dependencies; deterministic output (the generated files are committed):
  tests/corpus/import/good_*   import must print a summary and exit 0
  tests/corpus/import/bad_*    import must print exactly one line on stderr and exit 2
  tests/fuzz/corpus/<target>/  seed inputs for the libFuzzer targets in tests/fuzz/

  scripts/make_corpus.py            # (re)write both folders
  scripts/make_corpus.py --check    # fail if a committed file differs from what this script writes

Every file stays below 64 KiB. The cases that cannot be committed (a directory, a missing path, a file above
the 4 MiB config.json limit) are made at test time by tests/import_corpus.cmake.
GGUF layout: ggml docs/gguf.md (little-endian; header, key/values, tensor infos, padding, tensor data).
"""
import json
import os
import struct
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IMPORT_DIR = os.path.join(ROOT, "tests", "corpus", "import")
FUZZ_DIR = os.path.join(ROOT, "tests", "fuzz", "corpus")

# [SECTION] GGUF writer ---------------------------------------------------------------------------------------
U8, I8, U16, I16, U32, I32, F32, BOOL, STR, ARR, U64, I64, F64 = range(13)
FMT = {U8: "<B", I8: "<b", U16: "<H", I16: "<h", U32: "<I", I32: "<i", F32: "<f", BOOL: "<B", U64: "<Q",
       I64: "<q", F64: "<d"}
# ggml type id -> (block size, bytes per block), ggml type_traits[]
GGML = {0: (1, 4), 1: (1, 2), 8: (32, 34), 12: (256, 144), 14: (256, 210)}


def gstr(s):
    b = s.encode("utf-8") if isinstance(s, str) else s
    return struct.pack("<Q", len(b)) + b


def value(t, v):
    if t == STR:
        return gstr(v)
    if t == ARR:
        et, items = v
        out = struct.pack("<IQ", et, len(items))
        return out + b"".join(value(et, x) for x in items)
    return struct.pack(FMT[t], v)


class Gguf:
    def __init__(self, version=3, alignment=32):
        self.version, self.alignment = version, alignment
        self.kvs, self.tensors = [], []
        self.n_kv_override = self.n_tensors_override = None

    def kv(self, key, t, v):
        self.kvs.append(gstr(key) + struct.pack("<I", t) + value(t, v))
        return self

    def raw_kv(self, raw):  # hand-built key/value bytes
        self.kvs.append(raw)
        return self

    def tensor(self, name, dims, typ=0, offset=None):
        self.tensors.append((name, dims, typ, offset))
        return self

    def build(self, data=True):
        out = b"GGUF" + struct.pack("<IQQ", self.version,
                                    len(self.tensors) if self.n_tensors_override is None else self.n_tensors_override,
                                    len(self.kvs) if self.n_kv_override is None else self.n_kv_override)
        out += b"".join(self.kvs)
        off = 0
        for name, dims, typ, fixed in self.tensors:
            block, size = GGML.get(typ, (1, 4))
            n = 1
            for d in dims:
                n *= d
            out += gstr(name) + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
            out += struct.pack("<IQ", typ, off if fixed is None else fixed)
            off += n // block * size
            off = (off + self.alignment - 1) // self.alignment * self.alignment
        out += b"\0" * ((-len(out)) % self.alignment)
        if data:
            out += b"\0" * off
        return out


def tiny_llama(version=3, layers=2, hidden=16, ffn=32, vocab=32, heads=4, kv_heads=2, typ=1):
    """A complete tiny llama: header, tensor infos and zero tensor data (F16 weights, F32 norms)."""
    g = Gguf(version)
    g.kv("general.architecture", STR, "llama").kv("general.name", STR, "Tiny Llama")
    g.kv("general.file_type", U32, 1).kv("llama.block_count", U32, layers)
    g.kv("llama.context_length", U32, 2048).kv("llama.embedding_length", U32, hidden)
    g.kv("llama.feed_forward_length", U32, ffn).kv("llama.attention.head_count", U32, heads)
    g.kv("llama.attention.head_count_kv", U32, kv_heads).kv("llama.rope.freq_base", F32, 10000.0)
    g.kv("tokenizer.ggml.model", STR, "gpt2")
    g.kv("tokenizer.ggml.tokens", ARR, (STR, ["t%d" % i for i in range(vocab)]))
    hd = hidden // heads
    g.tensor("token_embd.weight", [hidden, vocab], typ).tensor("output_norm.weight", [hidden], 0)
    g.tensor("output.weight", [hidden, vocab], typ)
    for l in range(layers):
        p = "blk.%d." % l
        g.tensor(p + "attn_norm.weight", [hidden], 0).tensor(p + "attn_q.weight", [hidden, hidden], typ)
        g.tensor(p + "attn_k.weight", [hidden, hd * kv_heads], typ).tensor(p + "attn_v.weight", [hidden, hd * kv_heads], typ)
        g.tensor(p + "attn_output.weight", [hidden, hidden], typ).tensor(p + "ffn_norm.weight", [hidden], 0)
        g.tensor(p + "ffn_gate.weight", [hidden, ffn], typ).tensor(p + "ffn_up.weight", [hidden, ffn], typ)
        g.tensor(p + "ffn_down.weight", [ffn, hidden], typ)
    return g


def tiny_moe():
    """A tiny qwen3moe: 4 experts, 2 active, merged expert tensors."""
    g = Gguf()
    a = "qwen3moe."
    g.kv("general.architecture", STR, "qwen3moe").kv("general.name", STR, "Tiny MoE")
    g.kv(a + "block_count", U32, 2).kv(a + "context_length", U32, 4096).kv(a + "embedding_length", U32, 16)
    g.kv(a + "feed_forward_length", U32, 32).kv(a + "expert_feed_forward_length", U32, 8)
    g.kv(a + "expert_count", U32, 4).kv(a + "expert_used_count", U32, 2)
    g.kv(a + "attention.head_count", U32, 4).kv(a + "attention.head_count_kv", U32, 2)
    g.kv(a + "attention.key_length", U32, 4).kv(a + "attention.value_length", U32, 4)
    g.kv("tokenizer.ggml.tokens", ARR, (STR, ["t%d" % i for i in range(32)]))
    g.tensor("token_embd.weight", [16, 32], 1).tensor("output_norm.weight", [16], 0).tensor("output.weight", [16, 32], 1)
    for l in range(2):
        p = "blk.%d." % l
        for n, d in (("attn_norm", [16]), ("attn_q", [16, 16]), ("attn_k", [16, 8]), ("attn_v", [16, 8]),
                     ("attn_output", [16, 16]), ("attn_q_norm", [4]), ("attn_k_norm", [4]), ("ffn_norm", [16]),
                     ("ffn_gate_inp", [16, 4]), ("ffn_gate_exps", [16, 8, 4]), ("ffn_up_exps", [16, 8, 4]),
                     ("ffn_down_exps", [8, 16, 4])):
            g.tensor(p + n + ".weight", d, 0 if len(d) == 1 or n == "ffn_gate_inp" else 1)
    return g


def llama_kvs(g, skip=(), override=None):
    """The llama key/values of tiny_llama without tensors (for model_from_gguf error cases)."""
    vals = [("general.architecture", STR, "llama"), ("llama.block_count", U32, 2), ("llama.context_length", U32, 2048),
            ("llama.embedding_length", U32, 16), ("llama.feed_forward_length", U32, 32),
            ("llama.attention.head_count", U32, 4), ("llama.attention.head_count_kv", U32, 2),
            ("tokenizer.ggml.tokens", ARR, (STR, ["a", "b", "c"]))]
    override = override or {}
    for k, t, v in vals:
        if k in skip:
            continue
        if k in override:
            t, v = override[k]
        g.kv(k, t, v)
    return g


# [SECTION] config.json texts --------------------------------------------------------------------------------
LLAMA_CFG = {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 2048, "intermediate_size": 8192,
    "num_hidden_layers": 16, "num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 64,
    "max_position_embeddings": 131072, "vocab_size": 128256, "tie_word_embeddings": True,
    "rope_scaling": {"factor": 32.0, "high_freq_factor": 4.0, "low_freq_factor": 1.0,
                     "original_max_position_embeddings": 8192, "rope_type": "llama3"},
    "torch_dtype": "bfloat16",
}
QWEN3_MOE_CFG = {
    "architectures": ["Qwen3MoeForCausalLM"], "model_type": "qwen3_moe", "hidden_size": 2048,
    "intermediate_size": 6144, "moe_intermediate_size": 768, "num_experts": 128, "num_experts_per_tok": 8,
    "num_hidden_layers": 48, "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
    "max_position_embeddings": 40960, "vocab_size": 151936, "decoder_sparse_step": 1, "mlp_only_layers": [],
    "tie_word_embeddings": False, "sliding_window": None, "use_sliding_window": False,
}
GEMMA3_CFG = {
    "architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3",
    "text_config": {"model_type": "gemma3_text", "hidden_size": 2560, "intermediate_size": 10240,
                    "num_hidden_layers": 34, "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
                    "sliding_window": 1024, "rope_scaling": {"factor": 8.0, "rope_type": "linear"}},
    "vision_config": {"model_type": "siglip_vision_model", "hidden_size": 1152},
}


def cfg(**changes):
    c = dict(LLAMA_CFG)
    for k, v in changes.items():
        if v is None:
            c.pop(k, None)
        else:
            c[k] = v
    return json.dumps(c, indent=2).encode()


def tokenizer_json():
    vocab = {"tok%05d" % i: i for i in range(2000)}
    merges = ["tok%05d tok%05d" % (i, i + 1) for i in range(600)]
    return json.dumps({"version": "1.0", "truncation": None, "padding": None,
                       "added_tokens": [{"id": 0, "content": "<s>", "special": True}],
                       "normalizer": None, "pre_tokenizer": {"type": "ByteLevel"},
                       "model": {"type": "BPE", "vocab": vocab, "merges": merges}}).encode()


# [SECTION] the import corpus --------------------------------------------------------------------------------
def import_corpus():
    c = {}
    # good
    c["good_llama_tiny.gguf"] = tiny_llama().build()
    c["good_llama_tiny_v2.gguf"] = tiny_llama(version=2).build()
    c["good_moe_tiny.gguf"] = tiny_moe().build()
    c["good_llama_3.2_1b_config.json"] = cfg()
    c["good_qwen3_30b_a3b_config.json"] = json.dumps(QWEN3_MOE_CFG, indent=2).encode()
    c["good_gemma3_4b_multimodal_config.json"] = json.dumps(GEMMA3_CFG, indent=2).encode()

    # sizes and file kinds
    c["bad_zero_bytes.gguf"] = b""
    c["bad_zero_bytes_config.json"] = b""
    c["bad_one_byte.gguf"] = b"G"
    c["bad_one_byte_config.json"] = b"{"
    c["bad_one_byte_noext"] = b"\x00"
    c["bad_whitespace_config.json"] = b"   \n\t  \n"
    c["bad_safetensors_header.safetensors"] = struct.pack("<Q", 60) + \
        b'{"__metadata__":{"format":"pt"},"w":{"dtype":"F16","shape":[1]}}' + b"\0" * 16
    c["bad_safetensors_renamed.json"] = c["bad_safetensors_header.safetensors"]
    c["bad_binary_noise.bin"] = bytes((i * 73 + 41) % 256 for i in range(512))
    c["bad_tokenizer_like_big.json"] = tokenizer_json()
    c["bad_tokenizer_config.json"] = json.dumps({"tokenizer_class": "PreTrainedTokenizerFast", "bos_token": "<s>",
                                                 "model_max_length": 131072, "chat_template": "{{ x }}"}).encode()
    c["bad_safetensors_index.json"] = json.dumps({"metadata": {"total_size": 123},
                                                  "weight_map": {"lm_head.weight": "model-00001.safetensors"}}).encode()
    c["bad_html_error_page.json"] = b"<!DOCTYPE html><html><head><title>404</title></head><body>Not found</body></html>\n"

    # GGUF header structure
    tl = tiny_llama().build()
    c["bad_gguf_wrong_magic.gguf"] = b"GGUX" + tl[4:]
    c["bad_gguf_old_ggjt.gguf"] = b"tjgg" + struct.pack("<I", 3) + b"\0" * 64
    c["bad_gguf_big_endian.gguf"] = b"GGUF" + struct.pack(">IQQ", 3, 0, 0)
    c["bad_gguf_version_1.gguf"] = b"GGUF" + struct.pack("<IQQ", 1, 0, 0)
    c["bad_gguf_version_99.gguf"] = b"GGUF" + struct.pack("<IQQ", 99, 0, 0)
    c["bad_gguf_magic_only.gguf"] = b"GGUF"
    c["bad_gguf_truncated_in_counts.gguf"] = tl[:13]
    c["bad_gguf_truncated_in_metadata.gguf"] = tl[:200]
    c["bad_gguf_truncated_in_tensor_infos.gguf"] = tl[:len(tl) // 2 if len(tl) // 2 < 1200 else 1200]
    hdr_len = len(tiny_llama().build(data=False))
    c["bad_gguf_truncated_tensor_data.gguf"] = tl[:hdr_len + 100]
    g = Gguf()
    g.n_tensors_override = 1 << 40
    c["bad_gguf_huge_tensor_count.gguf"] = g.build()
    g = Gguf()
    g.n_kv_override = (1 << 64) - 1
    c["bad_gguf_huge_kv_count.gguf"] = g.build()
    g = Gguf()
    g.n_tensors_override = 500000  # under the limit, more than the file could hold
    c["bad_gguf_tensor_count_beyond_file.gguf"] = g.build()
    c["bad_gguf_huge_key_length.gguf"] = Gguf().raw_kv(struct.pack("<Q", 1 << 62) + b"general").build()
    c["bad_gguf_huge_string_length.gguf"] = Gguf().raw_kv(
        gstr("general.name") + struct.pack("<IQ", STR, (1 << 63) + 5) + b"abc").build()
    c["bad_gguf_huge_array_length.gguf"] = Gguf().raw_kv(
        gstr("tokenizer.ggml.tokens") + struct.pack("<IIQ", ARR, STR, 1 << 60)).build()
    c["bad_gguf_array_beyond_file.gguf"] = Gguf().raw_kv(
        gstr("llama.layers") + struct.pack("<IIQ", ARR, U32, 5000000)).build()
    nest = struct.pack("<I", ARR)
    for _ in range(6):
        nest += struct.pack("<IQ", ARR, 1)
    c["bad_gguf_deep_array_nesting.gguf"] = Gguf().raw_kv(gstr("deep") + nest + struct.pack("<IQ", U8, 1) + b"\1").build()
    c["bad_gguf_bad_value_type.gguf"] = Gguf().raw_kv(gstr("general.name") + struct.pack("<I", 13) + b"\0" * 8).build()
    c["bad_gguf_bad_array_type.gguf"] = Gguf().raw_kv(gstr("a") + struct.pack("<IIQ", ARR, 0xFFFFFFFF, 1)).build()
    c["bad_gguf_bool_is_7.gguf"] = Gguf().raw_kv(gstr("tokenizer.ggml.add_bos_token") + struct.pack("<IB", BOOL, 7)).build()
    c["bad_gguf_empty_key.gguf"] = Gguf().kv("", U32, 1).build()
    c["bad_gguf_duplicate_key.gguf"] = Gguf().kv("general.name", STR, "a").kv("general.name", STR, "b").build()
    c["bad_gguf_alignment_3.gguf"] = Gguf().kv("general.alignment", U32, 3).build()
    c["bad_gguf_alignment_string.gguf"] = Gguf().kv("general.alignment", STR, "32").build()
    c["bad_gguf_tensor_name_too_long.gguf"] = Gguf().tensor("x" * 80, [32], 0).build()
    c["bad_gguf_tensor_duplicate_name.gguf"] = Gguf().tensor("a.weight", [32], 0).tensor("a.weight", [32], 0).build()
    c["bad_gguf_tensor_0_dims.gguf"] = Gguf().tensor("a.weight", [], 0).build()
    c["bad_gguf_tensor_5_dims.gguf"] = Gguf().tensor("a.weight", [1, 1, 1, 1, 1], 0).build()
    c["bad_gguf_tensor_dims_overflow.gguf"] = Gguf().tensor("a.weight", [1 << 40, 1 << 40], 0).build(data=False)
    c["bad_gguf_tensor_unknown_type.gguf"] = Gguf().tensor("a.weight", [32], 4).build()
    c["bad_gguf_tensor_partial_block.gguf"] = Gguf().tensor("a.weight", [100, 2], 12).build(data=False)
    c["bad_gguf_tensor_misaligned.gguf"] = Gguf().tensor("a.weight", [8], 0, offset=7).build()
    c["bad_gguf_tensor_overlap.gguf"] = Gguf().tensor("a.weight", [64], 0, offset=0).tensor("b.weight", [64], 0, offset=128).build()
    c["bad_gguf_tensor_offset_overflow.gguf"] = Gguf().tensor("a.weight", [64], 0, offset=(1 << 64) - 32).build(data=False)

    # GGUF metadata that cannot describe a model
    c["bad_gguf_no_architecture.gguf"] = llama_kvs(Gguf(), skip=("general.architecture",)).build()
    c["bad_gguf_no_tensors_no_keys.gguf"] = Gguf().build()
    c["bad_gguf_block_count_missing.gguf"] = llama_kvs(Gguf(), skip=("llama.block_count",)).build()
    c["bad_gguf_block_count_string.gguf"] = llama_kvs(Gguf(), override={"llama.block_count": (STR, "2")}).build()
    c["bad_gguf_block_count_negative.gguf"] = llama_kvs(Gguf(), override={"llama.block_count": (I32, -2)}).build()
    c["bad_gguf_block_count_huge.gguf"] = llama_kvs(Gguf(), override={"llama.block_count": (U64, 1 << 40)}).build()
    c["bad_gguf_context_zero.gguf"] = llama_kvs(Gguf(), override={"llama.context_length": (U32, 0)}).build()
    c["bad_gguf_heads_zero.gguf"] = llama_kvs(Gguf(), override={"llama.attention.head_count": (U32, 0)}).build()
    c["bad_gguf_kv_heads_not_divisor.gguf"] = llama_kvs(Gguf(), override={"llama.attention.head_count_kv": (U32, 3)}).build()
    c["bad_gguf_hidden_not_multiple_of_heads.gguf"] = llama_kvs(Gguf(), override={"llama.embedding_length": (U32, 18)}).build()
    c["bad_gguf_ffn_missing.gguf"] = llama_kvs(Gguf(), skip=("llama.feed_forward_length",)).build()
    c["bad_gguf_no_vocabulary.gguf"] = llama_kvs(Gguf(), skip=("tokenizer.ggml.tokens",)).build()
    c["bad_gguf_experts_used_gt_count.gguf"] = llama_kvs(Gguf()).kv("llama.expert_count", U32, 4).kv(
        "llama.expert_used_count", U32, 8).build()
    c["bad_gguf_json_renamed.gguf"] = cfg()
    c["bad_gguf_architecture_float.gguf"] = llama_kvs(Gguf(), override={"general.architecture": (F32, 1.5)}).build()

    # config.json: syntax, encodings, nesting
    c["bad_config_truncated.json"] = cfg()[:150]
    c["bad_config_trailing_comma.json"] = b'{"model_type": "llama", "hidden_size": 4096,}'
    c["bad_config_comment.json"] = b'{\n  // Llama\n  "model_type": "llama"\n}'
    c["bad_config_array.json"] = b"[1, 2, 3]"
    c["bad_config_string.json"] = b'"llama"'
    c["bad_config_deep_nesting.json"] = b'{"model_type": "llama", "x": ' + b"[" * 200 + b"]" * 200 + b"}"
    c["bad_config_non_utf8.json"] = cfg().replace(b'"llama"', b'"ll\xffama"', 1)
    c["bad_config_latin1_name.json"] = b'{"model_type": "llama", "_name_or_path": "caf\xe9"}'
    c["bad_config_utf16.json"] = b"\xff\xfe" + '{"model_type": "llama"}'.encode("utf-16-le")
    c["bad_config_nul_bytes.json"] = b'{"model_type": "llama"\x00\x00\x00}'
    # config.json: fields
    c["bad_config_no_model_type.json"] = json.dumps({"hidden_size": 4096, "num_hidden_layers": 32}).encode()
    c["bad_config_missing_fields.json"] = json.dumps({"model_type": "llama", "hidden_size": 4096}).encode()
    c["bad_config_layers_string.json"] = cfg(num_hidden_layers="16")
    c["bad_config_layers_float.json"] = cfg(num_hidden_layers=16.5)
    c["bad_config_layers_zero.json"] = cfg(num_hidden_layers=0)
    c["bad_config_layers_huge.json"] = cfg(num_hidden_layers=10 ** 30)
    c["bad_config_layers_1e400.json"] = cfg().replace(b'"num_hidden_layers": 16', b'"num_hidden_layers": 1e400')
    c["bad_config_hidden_negative.json"] = cfg(hidden_size=-2048)
    c["bad_config_heads_bool.json"] = cfg(num_attention_heads=True)
    c["bad_config_kv_heads_not_divisor.json"] = cfg(num_key_value_heads=5)
    c["bad_config_hidden_not_multiple.json"] = cfg(hidden_size=2050, head_dim=None)
    c["bad_config_context_zero.json"] = cfg(max_position_embeddings=0)
    c["bad_config_tie_string.json"] = cfg(tie_word_embeddings="yes")
    c["bad_config_rope_factor_huge.json"] = cfg(rope_scaling={"rope_type": "yarn", "factor": 1e9})
    c["bad_config_experts_active_gt_total.json"] = cfg(num_local_experts=8, num_experts_per_tok=9)
    c["bad_config_experts_active_zero.json"] = cfg(num_local_experts=8, num_experts_per_tok=0)
    c["bad_config_mla_incomplete.json"] = cfg(kv_lora_rank=512)
    c["bad_config_first_dense_ge_layers.json"] = cfg(num_local_experts=8, num_experts_per_tok=2,
                                                     first_k_dense_replace=16)
    c["bad_config_text_config_string.json"] = json.dumps({"model_type": "gemma3", "text_config": "x",
                                                          "num_hidden_layers": "x"}).encode()
    return c


# [SECTION] fuzz seeds ---------------------------------------------------------------------------------------
def fuzz_seeds():
    s = {}
    s["fuzz_gguf"] = {
        "llama_tiny.gguf": tiny_llama().build(data=False),
        "llama_tiny_v2.gguf": tiny_llama(version=2).build(data=False),
        "moe_tiny.gguf": tiny_moe().build(data=False),
        "kv_types.gguf": Gguf().kv("a", U8, 1).kv("b", I8, -1).kv("c", U16, 2).kv("d", I16, -2).kv("e", I32, -3)
                          .kv("f", F64, 0.5).kv("g", I64, -5).kv("h", U64, 7).kv("i", BOOL, 1)
                          .kv("j", ARR, (F32, [1.0, 2.0])).kv("k", ARR, (ARR, [(U8, [1]), (U8, [2, 3])]))
                          .kv("general.alignment", U32, 64).build(data=False),
        "mla_swa.gguf": llama_kvs(Gguf(), override={"general.architecture": (STR, "gemma2")}).kv(
            "gemma2.attention.sliding_window", U32, 4096).kv("gemma2.attention.kv_lora_rank", U32, 512)
            .kv("gemma2.attention.key_length_mla", U32, 192).kv("gemma2.attention.value_length_mla", U32, 128)
            .build(data=False),
        "hybrid.gguf": llama_kvs(Gguf(), override={"general.architecture": (STR, "jamba")}).kv(
            "jamba.ssm.conv_kernel", U32, 4).kv("jamba.ssm.inner_size", U32, 32).kv("jamba.ssm.state_size", U32, 16)
            .kv("jamba.attention.head_count_kv", ARR, (U32, [0, 2])).build(data=False),
        "truncated.gguf": tiny_llama().build(data=False)[:300],
    }
    s["fuzz_hf_config"] = {
        "llama.json": cfg(),
        "qwen3_moe.json": json.dumps(QWEN3_MOE_CFG).encode(),
        "gemma3.json": json.dumps(GEMMA3_CFG).encode(),
        "deepseek_v3.json": json.dumps({
            "model_type": "deepseek_v3", "hidden_size": 7168, "intermediate_size": 18432,
            "moe_intermediate_size": 2048, "n_routed_experts": 256, "n_shared_experts": 1, "num_experts_per_tok": 8,
            "first_k_dense_replace": 3, "num_hidden_layers": 61, "num_attention_heads": 128,
            "num_key_value_heads": 128, "kv_lora_rank": 512, "q_lora_rank": 1536, "qk_rope_head_dim": 64,
            "qk_nope_head_dim": 128, "v_head_dim": 128, "max_position_embeddings": 163840, "vocab_size": 129280,
            "topk_method": "noaux_tc", "num_nextn_predict_layers": 1,
            "rope_scaling": {"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096}}).encode(),
        "jamba.json": json.dumps({
            "model_type": "jamba", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
            "num_attention_heads": 32, "num_key_value_heads": 8, "num_experts": 16, "num_experts_per_tok": 2,
            "expert_layer_period": 2, "expert_layer_offset": 1, "attn_layer_period": 8, "attn_layer_offset": 4,
            "mamba_d_state": 16, "mamba_d_conv": 4, "mamba_expand": 2, "mamba_dt_rank": 256,
            "max_position_embeddings": 262144, "vocab_size": 65536}).encode(),
        "qwen3_next.json": json.dumps({
            "model_type": "qwen3_next", "hidden_size": 2048, "intermediate_size": 5120, "num_hidden_layers": 48,
            "num_attention_heads": 16, "num_key_value_heads": 2, "head_dim": 256, "num_experts": 512,
            "num_experts_per_tok": 10, "moe_intermediate_size": 512, "shared_expert_intermediate_size": 512,
            "full_attention_interval": 4, "max_position_embeddings": 262144, "vocab_size": 151936,
            "layer_types": ["linear_attention"] * 3 + ["full_attention"]}).encode(),
        "gpt_oss.json": json.dumps({
            "model_type": "gpt_oss", "hidden_size": 2880, "intermediate_size": 2880, "num_hidden_layers": 4,
            "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 64, "num_local_experts": 32,
            "num_experts_per_tok": 4, "sliding_window": 128, "max_position_embeddings": 131072,
            "vocab_size": 201088, "layer_types": ["sliding_attention", "full_attention"] * 2,
            "rope_scaling": {"rope_type": "yarn", "factor": 32.0, "original_max_position_embeddings": 4096}}).encode(),
        "falcon.json": json.dumps({"model_type": "falcon", "multi_query": True}).encode(),
        "unknown.json": json.dumps({"architectures": ["FooForCausalLM"], "hidden_size": 64, "num_hidden_layers": 2,
                                    "num_attention_heads": 4, "vocab_size": 100, "max_position_embeddings": 128,
                                    "intermediate_size": 128, "sliding_window": 64}).encode(),
        "bad_types.json": cfg(num_hidden_layers="16", tie_word_embeddings=3),
    }
    s["fuzz_url_state"] = {
        "default.txt": b"model=Qwen%2FQwen2.5-7B-Instruct&quant=Q4_K_M&ctx=32768",
        "all.txt": b"#model=meta-llama/Llama-3.1-8B&hardware=rtx-4090&quant=Q8_0&ctx=128k&kv=q8_0&fa=off&ngl=20"
                   b"&cpu_moe=2&np=4&prompt=4096&gen=512&ctx_b=8192&hours=100.5&mtok=60&kwh=0.3&months=24"
                   b"&section=cost&embed=simulator&theme=light",
        "bad.txt": b"ctx=-5&fa=maybe&np=1e9&model=%zz&zzz=1",
        "json.txt": b'{"model":"Qwen/Qwen3-8B","ctx":8192,"fa":true,"hours":12.5}',
    }
    s["fuzz_api_memory"] = {
        "basic.json": b'{"model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q4_K_M","ctx":32768,"hardware":"rtx-4090"}',
        "full.json": b'{"model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q8_0","ctx":1,"kv_type":"q8_0","ngl":10,'
                     b'"parallel":1024,"ubatch":512,"flash_attn":false,"n_cpu_moe":0,"file_bytes":1000}',
        "config.json": b'{"model":"x/y","quant":"Q4_0","ctx":100000000,"config":' + cfg().replace(b"\n", b"") + b"}",
        "bad.json": b'{"model":5,"ctx":"big","hardware":[]}',
        "ollama_tag.json": b'{"model":"gpt-oss:20b","ctx":8192,"hardware":"rtx-4090"}',
    }
    s["fuzz_predict"] = {
        "catalog.json": b'{"id":"a","model":"Qwen/Qwen2.5-7B-Instruct","quant":"Q4_K_M","hardware":"rtx-4090","gpus":1,'
                        b'"backend":"cuda","flash_attn":true,"test":{"kind":"decode","tokens":128,"depth":4096}}',
        "custom_hw.json": b'{"id":"b","model":"x/y","config":{"model_type":"llama","hidden_size":4096,'
                          b'"intermediate_size":14336,"num_hidden_layers":32,"num_attention_heads":32,'
                          b'"num_key_value_heads":8,"max_position_embeddings":8192,"vocab_size":128256},'
                          b'"model_size_gib":4.58,"hardware":{"name":"Custom","vendor":"amd","kind":"consumer",'
                          b'"memory_gib":24,"bandwidth_gbs":0.1,"fp16_tflops":null},"gpus":1024,'
                          b'"test":{"kind":"prefill","tokens":512,"depth":0}}',
        "bad.json": b'{"id":1,"model":null,"test":{"kind":"sideways","tokens":-1}}',
        # names people type (engine/catalog/model_names.h): an Ollama tag, a tag that spells its quant, a GGUF repo
        "ollama_tag.json": b'{"id":"t","model":"qwen2.5:7b","hardware":"rtx-4090","test":{"kind":"decode","tokens":128,"depth":0}}',
        "ollama_quant.json": b'{"id":"q","model":"llama3.1:8b-instruct-q8_0","quant":"Q4_K_M","hardware":"rtx-4090"}',
        "gguf_repo.json": b'{"id":"g","model":"hf.co/bartowski/Qwen2.5-7B-Instruct-GGUF:Q6_K","hardware":"rtx-4090",'
                          b'"test":{"kind":"prefill","tokens":512,"depth":0}}',
    }
    cat = os.path.join(ROOT, "assets", "catalog")
    seeds = {}
    # the catalog fuzzer reads three documents separated by a line holding only "\x00---\x00"
    sep = b"\n\x00---\x00\n"
    with open(os.path.join(cat, "hardware.json"), "rb") as f:
        hw = json.load(f)
    with open(os.path.join(cat, "models.json"), "rb") as f:
        models = json.load(f)
    with open(os.path.join(cat, "quants.json"), "rb") as f:
        q = json.load(f)
    doc = lambda o: json.dumps(o, separators=(",", ":")).encode()
    small_q = {k: v for k, v in q.items() if k in ("schema", "ggml_types", "file_types")}
    small_q["file_types"] = [f for f in q["file_types"] if f.get("name") in ("F16", "Q8_0", "Q4_K_M", "MLX_4BIT")]
    quants = doc(small_q)
    small_models = {"schema": models["schema"], "models": models["models"][:2]}
    small_hw = {"schema": hw["schema"], "devices": hw["devices"][:3]}
    seeds["small.txt"] = doc(small_models) + sep + doc(small_hw) + sep + quants
    seeds["empty_lists.txt"] = doc(dict(small_models, models=[])) + sep + doc(dict(small_hw, devices=[])) + sep + quants
    seeds["not_json.txt"] = b"{" + sep + b"[]" + sep + b"null"
    tagged = [m for m in models["models"] if m.get("ollama_tags")][:1]   # the ollama_tags list parser
    seeds["ollama_tags.txt"] = doc(dict(small_models, models=tagged)) + sep + doc(small_hw) + sep + quants
    s["fuzz_catalog"] = seeds
    return s


# [SECTION] main ---------------------------------------------------------------------------------------------
def write_tree(folder, files, check):
    ok = True
    os.makedirs(folder, exist_ok=True)
    for name, data in sorted(files.items()):
        assert len(data) < 64 * 1024, "%s is %d bytes (limit 64 KiB)" % (name, len(data))
        path = os.path.join(folder, name)
        if check:
            try:
                same = open(path, "rb").read() == data
            except OSError:
                same = False
            if not same:
                print("differs: %s" % os.path.relpath(path, ROOT))
                ok = False
        else:
            with open(path, "wb") as f:
                f.write(data)
    return ok


def main():
    check = "--check" in sys.argv[1:]
    ok = write_tree(IMPORT_DIR, import_corpus(), check)
    for target, files in fuzz_seeds().items():
        ok = write_tree(os.path.join(FUZZ_DIR, target), files, check) and ok
    if not check:
        n = len(os.listdir(IMPORT_DIR))
        print("wrote %d import corpus files to %s and fuzz seeds to %s" % (n, os.path.relpath(IMPORT_DIR, ROOT),
                                                                          os.path.relpath(FUZZ_DIR, ROOT)))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
