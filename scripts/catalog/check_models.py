#!/usr/bin/env python3
"""Check assets/catalog/models.json: schema keys, and parameter counts vs published counts.

Parameter counts are computed the way llama.cpp lays out the GGUF tensors of each architecture:
  token_embd V*h; output V*h unless tied; output_norm h;
  per layer:
    attention (plain):  attn_q h*(n_heads*head_dim) [+bias], attn_k/attn_v h*(n_kv*head_dim) [+bias],
                        attn_output (n_heads*head_dim_v)*h, q/k norms (head_dim each) when qk_norm
    attention (MLA, DeepSeek-V2/V3 shapes):
                        q_lora_rank>0: attn_q_a h*q_lora + attn_q_a_norm q_lora + attn_q_b q_lora*n_heads*(nope+rope)
                        else:          attn_q h*n_heads*(nope+rope)
                        attn_kv_a_mqa h*(kv_lora+rope) + attn_kv_a_norm kv_lora
                        + attn_kv_b kv_lora*n_heads*(nope+v_head)  (llama.cpp may split it into k_b/v_b: same count)
                        + attn_output n_heads*v_head*h
    recurrent layers (hybrid.attention_layers lists the layers with KV): hybrid.recurrent_layer_params instead
    norms: attn_norm h + ffn_norm h
    FFN dense: 3*h*ffn (gated) or 2*h*ffn
    FFN MoE:   n_experts*3*h*expert_ffn + router h*n_experts [+ n_experts router bias]
               + n_shared*3*h*shared_ffn (shared_ffn 0 = expert_ffn)
    a layer il is MoE when il >= first_dense_layers and (il+1) % layer_step == 0
  active params: the same with n_experts_active routed experts instead of n_experts.

Usage: python3 scripts/catalog/check_models.py [path/to/models.json]   (exit 1 on a schema error or >1% disagreement)
"""
import json
import os
import sys

REQUIRED = ["id", "name", "family", "license", "arch", "n_layers", "hidden_size", "intermediate_size", "n_heads",
            "n_kv_heads", "head_dim", "head_dim_v", "vocab_size", "tie_embeddings", "qkv_bias", "qk_norm", "gated_ffn",
            "native_context", "extended_context", "rope_scaling", "moe", "mla", "swa", "hybrid",
            "published_params_b", "published_active_params_b", "api_price", "release_format", "sources", "notes"]
MOE_KEYS = ["n_experts", "n_experts_active", "n_shared_experts", "expert_ffn", "shared_ffn", "first_dense_layers",
            "layer_step", "router_bias"]
MLA_KEYS = ["q_lora_rank", "kv_lora_rank", "qk_rope_head_dim", "qk_nope_head_dim", "v_head_dim"]
SWA_KEYS = ["window", "pattern", "sliding_layers"]
HYBRID_KEYS = ["recurrent_type", "attention_layers", "ssm_state_bytes_per_layer", "recurrent_layer_params"]
PRICE_KEYS = ["input_usd_per_mtok", "output_usd_per_mtok", "provider", "date", "source"]
RELEASE_KEYS = ["weights", "file_type", "source"]


def is_moe_layer(m, il):
    moe = m.get("moe")
    if not moe or not moe.get("n_experts"):
        return False
    if il < (moe.get("first_dense_layers") or 0):
        return False
    step = moe.get("layer_step") or 1
    return (il + 1) % step == 0


def attn_params(m):
    h = m["hidden_size"]
    nh = m["n_heads"]
    mla = m.get("mla")
    if mla:
        nope, rope, vhd = mla["qk_nope_head_dim"], mla["qk_rope_head_dim"], mla["v_head_dim"]
        qlr, kvlr = mla["q_lora_rank"], mla["kv_lora_rank"]
        p = 0
        if qlr:
            p += h * qlr + qlr + qlr * nh * (nope + rope)
        else:
            p += h * nh * (nope + rope)
        p += h * (kvlr + rope) + kvlr
        p += kvlr * nh * (nope + vhd)
        p += nh * vhd * h
        return p
    hd = m["head_dim"]
    hdv = m.get("head_dim_v") or hd
    nkv = m["n_kv_heads"]
    p = h * nh * hd + h * nkv * hd + h * nkv * hdv + nh * hdv * h
    if m.get("qkv_bias"):
        p += nh * hd + nkv * hd + nkv * hdv
    if m.get("qk_norm"):
        p += 2 * hd
    return p


def ffn_params(m, il, active):
    h = m["hidden_size"]
    mult = 3 if m.get("gated_ffn", True) else 2
    if not is_moe_layer(m, il):
        return mult * h * m["intermediate_size"]
    moe = m["moe"]
    e = moe["n_experts_active"] if active else moe["n_experts"]
    p = e * mult * h * moe["expert_ffn"]
    p += h * moe["n_experts"] + (moe["n_experts"] if moe.get("router_bias") else 0)
    if moe.get("n_shared_experts"):
        sffn = moe.get("shared_ffn") or moe["expert_ffn"]
        p += moe["n_shared_experts"] * mult * h * sffn
    return p


def count_params(m, active=False):
    h, V = m["hidden_size"], m["vocab_size"]
    total = V * h + (0 if m["tie_embeddings"] else V * h) + h
    hyb = m.get("hybrid")
    attn_layers = set(hyb["attention_layers"]) if hyb else None
    a = attn_params(m)
    for il in range(m["n_layers"]):
        if attn_layers is not None and il not in attn_layers:
            total += hyb["recurrent_layer_params"]
        else:
            total += a
        total += 2 * h
        total += ffn_params(m, il, active)
    return total


def check_schema(m, errs):
    for k in REQUIRED:
        if k not in m:
            errs.append(f"{m.get('id')}: missing key {k}")
    for blk, keys in (("moe", MOE_KEYS), ("mla", MLA_KEYS), ("swa", SWA_KEYS), ("hybrid", HYBRID_KEYS),
                      ("api_price", PRICE_KEYS), ("release_format", RELEASE_KEYS)):
        if m.get(blk) is not None:
            for k in keys:
                if k not in m[blk]:
                    errs.append(f"{m['id']}: {blk} missing key {k}")
    for k in ("n_layers", "hidden_size", "n_heads", "n_kv_heads", "head_dim", "vocab_size", "native_context"):
        if not isinstance(m.get(k), int) or m[k] <= 0:
            errs.append(f"{m['id']}: {k} must be a positive integer, got {m.get(k)!r}")
    if not m.get("sources"):
        errs.append(f"{m['id']}: no sources")
    if m.get("swa") and m["swa"]["pattern"] == 0 and not m["swa"]["sliding_layers"]:
        errs.append(f"{m['id']}: swa pattern 0 needs sliding_layers")
    if m.get("hybrid"):
        for il in m["hybrid"]["attention_layers"]:
            if not 0 <= il < m["n_layers"]:
                errs.append(f"{m['id']}: hybrid attention layer {il} out of range")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "assets", "catalog", "models.json")
    with open(path) as f:
        doc = json.load(f)
    models = doc["models"]
    errs = []
    ids = set()
    for m in models:
        check_schema(m, errs)
        if m["id"].lower() in ids:
            errs.append(f"duplicate id {m['id']}")
        ids.add(m["id"].lower())
    if errs:
        print("\n".join(errs))
        return 1
    worst = 0.0
    worst_act = 0.0
    n_pub = n_act = 0
    bad = []
    print(f"{'id':55s} {'computed_B':>11s} {'published':>9s} {'diff%':>7s} {'active_B':>9s} {'pub_act':>7s} {'diff%':>7s}")
    for m in models:
        tot = count_params(m) / 1e9
        act = count_params(m, active=True) / 1e9 if m.get("moe") else None
        pub, pact = m.get("published_params_b"), m.get("published_active_params_b")
        d = da = None
        if pub:
            n_pub += 1
            d = 100.0 * (tot - pub) / pub
            worst = max(worst, abs(d))
            if abs(d) > 1.0:
                bad.append(f"{m['id']}: total {tot:.3f}B vs published {pub}B ({d:+.2f}%)")
        if pact and act is not None:
            n_act += 1
            da = 100.0 * (act - pact) / pact
            worst_act = max(worst_act, abs(da))  # informational: publishers count active params differently
        print(f"{m['id']:55s} {tot:11.3f} {pub if pub else '-':>9} {('%+.2f' % d) if d is not None else '-':>7} "
              f"{('%.3f' % act) if act is not None else '-':>9} {pact if pact else '-':>7} "
              f"{('%+.2f' % da) if da is not None else '-':>7}")
    n_price = sum(1 for m in models if m.get("api_price"))
    print(f"\nmodels: {len(models)}; with published total: {n_pub}; with published active: {n_act}; "
          f"max |total param error|: {worst:.2f}%; max |active error| (informational): {worst_act:.2f}%; "
          f"with api_price: {n_price}")
    if bad:
        print("DISAGREEMENTS > 1%:\n  " + "\n  ".join(bad))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
