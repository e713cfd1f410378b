// -ot patterns: a small backtracking ECMAScript-subset matcher and the expert placement it selects. See
// tensor_overrides.h.
//
// [SECTION] Pattern parser
// [SECTION] Matcher
// [SECTION] Expert placement
#include "api/tensor_overrides.h"

#include <algorithm>
#include <bitset>
#include <cctype>
#include <climits>
#include <cstdint>
#include <functional>

#include "model/model_tensors.h"

namespace llmsim {

namespace {

// [SECTION] Pattern parser ---------------------------------------------------------------------------------

struct RxNode;
using RxSeq = std::vector<RxNode>;
struct RxNode {
    enum Kind { Set, Group, LineStart, LineEnd } kind = Set;
    std::bitset<256> set;                 // Set: the bytes it accepts
    std::vector<RxSeq> alts;              // Group: alternatives
    int min = 1, max = 1;                 // quantifier; max INT_MAX = unbounded
};

struct RxParser {
    explicit RxParser(const std::string& pattern) : p(pattern) {}
    const std::string& p;
    size_t i = 0;
    std::string err;
    int depth = 0;

    bool fail(const std::string& why) { if (err.empty()) err = why + " at offset " + std::to_string(i); return false; }

    // \d \w \s (and upper-case complements) into a set; false for any other class letter
    static bool class_escape(char c, std::bitset<256>& s) {
        std::bitset<256> t;
        const char lc = (char)(c | 0x20);
        if (lc == 'd') for (int b = '0'; b <= '9'; ++b) t.set(b);
        else if (lc == 'w') { for (int b = 0; b < 256; ++b) if (isalnum(b) || b == '_') t.set(b); }
        else if (lc == 's') for (int b : {' ', '\t', '\n', '\r', '\f', '\v'}) t.set(b);
        else return false;
        s |= (c >= 'A' && c <= 'Z') ? ~t : t;
        return true;
    }
    // the character an escape stands for (\. \n \t \\ ...); false for what the subset lacks (\1, \b, \k ...)
    bool escaped_char(char c, char& out) {
        if (c == 'n') { out = '\n'; return true; }
        if (c == 't') { out = '\t'; return true; }
        if (c == 'r') { out = '\r'; return true; }
        if (isalnum((unsigned char)c)) return fail(std::string("unsupported escape \\") + c);
        out = c;
        return true;
    }
    bool parse_class(RxNode& n) {   // after '['
        bool neg = i < p.size() && p[i] == '^';
        if (neg) ++i;
        bool first = true;
        while (i < p.size() && (p[i] != ']' || first)) {
            first = false;
            unsigned char lo = (unsigned char)p[i++];
            if (lo == '\\') {
                if (i >= p.size()) return fail("unfinished escape");
                if (class_escape(p[i], n.set)) { ++i; continue; }
                char c = 0;
                if (!escaped_char(p[i++], c)) return false;
                lo = (unsigned char)c;
            }
            unsigned char hi = lo;
            if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
                hi = (unsigned char)p[i + 1];
                i += 2;
                if (hi < lo) return fail("range out of order");
            }
            for (int b = lo; b <= hi; ++b) n.set.set(b);
        }
        if (i >= p.size()) return fail("unclosed [");
        ++i;
        if (neg) n.set.flip();
        return true;
    }
    bool parse_quantifier(RxNode& n) {
        if (i >= p.size()) return true;
        const char c = p[i];
        if (c == '*' || c == '+' || c == '?') {
            n.min = c == '+' ? 1 : 0;
            n.max = c == '?' ? 1 : INT_MAX;
            ++i;
        } else if (c == '{' && i + 1 < p.size() && isdigit((unsigned char)p[i + 1])) {
            size_t j = i + 1;
            long a = 0, b;
            while (j < p.size() && isdigit((unsigned char)p[j]) && a < 100000) a = a * 10 + (p[j++] - '0');
            b = a;
            if (j < p.size() && p[j] == ',') {
                ++j;
                if (j < p.size() && isdigit((unsigned char)p[j])) {
                    b = 0;
                    while (j < p.size() && isdigit((unsigned char)p[j]) && b < 100000) b = b * 10 + (p[j++] - '0');
                } else {
                    b = INT_MAX;
                }
            }
            if (j >= p.size() || p[j] != '}') return fail("malformed {m,n}");
            if (b < a) return fail("{m,n} with n < m");
            n.min = (int)a;
            n.max = (int)b;
            i = j + 1;
        } else {
            return true;
        }
        if (n.kind == RxNode::LineStart || n.kind == RxNode::LineEnd) return fail("quantifier after an anchor");
        if (i < p.size() && p[i] == '?') ++i;   // lazy: the same strings match, only the split differs
        return true;
    }
    bool parse_atom(RxNode& n) {
        const char c = p[i++];
        if (c == '(') {
            if (i < p.size() && p[i] == '?') {
                if (i + 1 < p.size() && p[i + 1] == ':') i += 2;
                else return fail("look-around and named groups are not supported");
            }
            n.kind = RxNode::Group;
            if (++depth > 32) return fail("groups nested too deep");
            if (!parse_alts(n.alts)) return false;
            --depth;
            if (i >= p.size() || p[i] != ')') return fail("unclosed (");
            ++i;
        } else if (c == '[') {
            if (!parse_class(n)) return false;
        } else if (c == '.') {
            n.set.set();
            n.set.reset('\n');
        } else if (c == '^') {
            n.kind = RxNode::LineStart;
        } else if (c == '$') {
            n.kind = RxNode::LineEnd;
        } else if (c == '\\') {
            if (i >= p.size()) return fail("unfinished escape");
            if (!class_escape(p[i], n.set)) {
                char e = 0;
                if (!escaped_char(p[i], e)) return false;
                n.set.set((unsigned char)e);
            }
            ++i;
        } else if (c == '*' || c == '+' || c == '?' || c == ')' || c == ']' || c == '{' || c == '}') {
            --i;
            return fail(std::string("unexpected '") + c + "'");
        } else {
            n.set.set((unsigned char)c);
        }
        return parse_quantifier(n);
    }
    bool parse_alts(std::vector<RxSeq>& alts) {
        alts.emplace_back();
        while (i < p.size() && p[i] != ')') {
            if (p[i] == '|') { ++i; alts.emplace_back(); continue; }
            RxNode n;
            if (!parse_atom(n)) return false;
            alts.back().push_back(std::move(n));
        }
        return true;
    }
};

// [SECTION] Matcher ----------------------------------------------------------------------------------------

using Cont = std::function<bool(size_t)>;
// backtracking steps one search may take: nested repetition such as "(.*)*x" is exponential in the name's length,
// and a line must not hang predict
constexpr long kMaxMatchSteps = 200000;
struct MatchBudget {
    long steps = 0;
    bool exhausted = false;
};
bool match_seq(const RxSeq& seq, size_t k, const std::string& s, size_t pos, MatchBudget& b, const Cont& next);

// one occurrence of n at pos, then next
bool match_one(const RxNode& n, const std::string& s, size_t pos, MatchBudget& b, const Cont& next) {
    if (++b.steps > kMaxMatchSteps) { b.exhausted = true; return false; }
    switch (n.kind) {
        case RxNode::Set: return pos < s.size() && n.set[(unsigned char)s[pos]] && next(pos + 1);
        case RxNode::LineStart: return pos == 0 && next(pos);
        case RxNode::LineEnd: return pos == s.size() && next(pos);
        case RxNode::Group:
            for (const RxSeq& alt : n.alts)
                if (match_seq(alt, 0, s, pos, b, next)) return true;
            return false;
    }
    return false;
}

// n repeated (greedy: one more first), count times so far; an empty iteration ends the loop
bool match_repeat(const RxNode& n, int count, const std::string& s, size_t pos, MatchBudget& b, const Cont& next) {
    if (count < n.max && match_one(n, s, pos, b, [&](size_t p2) {
            return !(p2 == pos && count >= n.min) && match_repeat(n, count + 1, s, p2, b, next);
        }))
        return true;
    return !b.exhausted && count >= n.min && next(pos);
}

bool match_seq(const RxSeq& seq, size_t k, const std::string& s, size_t pos, MatchBudget& b, const Cont& next) {
    if (k == seq.size()) return next(pos);
    return match_repeat(seq[k], 0, s, pos, b, [&](size_t p2) { return match_seq(seq, k + 1, s, p2, b, next); });
}

struct CompiledRx {
    RxNode top;                           // a group of the pattern's alternatives
    mutable bool too_costly = false;      // a search ran out of steps (then it reports no match)
    bool search(const std::string& s) const {
        MatchBudget b;
        for (size_t start = 0; start <= s.size() && !b.exhausted; ++start)
            if (match_one(top, s, start, b, [](size_t) { return true; })) return true;
        too_costly |= b.exhausted;
        return false;
    }
};

bool compile_rx(const std::string& pattern, CompiledRx& out, std::string& err) {
    RxParser ps(pattern);
    if (pattern.size() > 4096) { err = "pattern longer than 4096 characters"; return false; }
    out.top.kind = RxNode::Group;
    if (!ps.parse_alts(out.top.alts) || (ps.i < pattern.size() && !ps.fail("unmatched )"))) {
        err = ps.err;
        return false;
    }
    return true;
}

// [SECTION] Expert placement -------------------------------------------------------------------------------

// tensors that stay on the GPU in the speed model (llama.cpp's names, src/llama-arch.cpp): a pattern that matches one
// of a layer's moves something the placement model does not move. Only names the layer has are probed (a pattern that
// would match a tensor the model lacks moves nothing in llama.cpp either)
constexpr const char* kAttention[] = {"attn_norm", "attn_q", "attn_k", "attn_v", "attn_output", "attn_qkv", "attn_q_a",
                                      "attn_q_b", "attn_kv_a_mqa", "attn_kv_b", "ffn_norm"};
constexpr const char* kMoeKeep[] = {"ffn_gate_inp"};
constexpr const char* kSharedKeep[] = {"ffn_up_shexp", "ffn_gate_shexp", "ffn_down_shexp"};
constexpr const char* kDenseKeep[] = {"ffn_up", "ffn_gate", "ffn_down"};
constexpr const char* kGlobalKeep[] = {"output", "output_norm"};
constexpr const char* kExperts[] = {"ffn_up_exps", "ffn_gate_exps", "ffn_down_exps"};

// the first of `names` in layer `blk` the pattern matches, or "" when none
template <size_t N>
std::string first_match(const CompiledRx& rx, const std::string& blk, const char* const (&names)[N]) {
    for (const char* t : names)
        if (rx.search(blk + t + ".weight")) return blk + t + ".weight";
        else if (rx.too_costly) break;
    return "";
}

// one "<pattern>=CPU" entry applied to the model's tensor names: per MoE layer, a bit per expert tensor it moves
bool apply_override(const Model& m, const std::string& entry, std::vector<int>& moved, std::string& err) {
    const size_t eq = entry.find('=');
    if (eq == std::string::npos || eq == 0) { err = "override_tensors entry '" + entry + "' is not <tensor pattern>=CPU"; return false; }
    const std::string pattern = entry.substr(0, eq), buffer = entry.substr(eq + 1);
    if (buffer != "CPU") {
        err = "override_tensors entry '" + entry + "' sends tensors to '" + buffer + "': only =CPU (host RAM) is modelled";
        return false;
    }
    CompiledRx rx;
    if (!compile_rx(pattern, rx, err)) { err = "override_tensors pattern '" + pattern + "': " + err; return false; }
    const bool shared = m.moe && m.moe->n_shared_experts > 0;
    for (int il = -1; il < m.n_layers && !rx.too_costly; ++il) {
        const bool moe = il >= 0 && layer_is_moe(m, il);
        const std::string blk = il < 0 ? "" : "blk." + std::to_string(il) + ".";
        std::string hit = il < 0 ? first_match(rx, blk, kGlobalKeep) : first_match(rx, blk, kAttention);
        if (hit.empty() && moe) hit = first_match(rx, blk, kMoeKeep);
        if (hit.empty() && moe && shared) hit = first_match(rx, blk, kSharedKeep);
        if (hit.empty() && il >= 0 && !moe) hit = first_match(rx, blk, kDenseKeep);
        if (!hit.empty()) {
            err = "override_tensors pattern '" + pattern + "' also matches '" + hit + "': only routed-expert tensors "
                  "(ffn_*_exps) are modelled";
            return false;
        }
        if (!moe) continue;
        for (size_t t = 0; t < 3; ++t)
            if (rx.search(blk + kExperts[t] + ".weight")) moved[(size_t)il] |= 1 << t;
    }
    if (rx.too_costly) {
        err = "override_tensors pattern '" + pattern + "' is too costly to match (nested repetition such as (.*)*)";
        return false;
    }
    return true;
}

}  // namespace

bool regex_search_lite(const std::string& pattern, const std::string& text, bool& found, std::string& err) {
    CompiledRx rx;
    if (!compile_rx(pattern, rx, err)) return false;
    found = rx.search(text);
    if (rx.too_costly) { err = "pattern too costly to match (nested repetition such as (.*)*)"; return false; }
    return true;
}

bool expert_layers_on_host(const Model& m, const std::string& overrides, std::vector<int>& layers, std::string& err) {
    layers.clear();
    if (overrides.find(';') != std::string::npos) {
        err = "override_tensors: ';' separates llama-bench runs; give one run's list (entries separated by ',')";
        return false;
    }
    std::vector<int> moved((size_t)std::max(0, m.n_layers), 0);   // bit t: kExperts[t] on the CPU
    size_t start = 0;
    while (start <= overrides.size()) {
        const size_t comma = overrides.find(',', start);
        const std::string entry = overrides.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
        if (entry.empty()) { err = "override_tensors has an empty entry (a stray ',')"; return false; }
        if (!apply_override(m, entry, moved, err)) return false;
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    for (int il = 0; il < m.n_layers; ++il) {
        if (moved[(size_t)il] == 7) layers.push_back(il);
        else if (moved[(size_t)il] != 0) {
            err = "override_tensors moves only some of layer " + std::to_string(il) + "'s expert tensors (ffn_up/gate/down_exps): "
                  "the placement model moves a layer's routed experts together";
            return false;
        }
    }
    if (layers.empty()) {
        err = m.is_moe() ? "override_tensors moves no tensor of " + m.id + " (its expert tensors are blk.N.ffn_{up,gate,down}_exps)"
                         : "override_tensors moves no tensor of " + m.id + ": it has no routed experts";
        return false;
    }
    return true;
}

}  // namespace llmsim
