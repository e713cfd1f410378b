// Name resolution for models: catalog ids, Ollama library tags, hf.co/ references and GGUF repo names.
#include "catalog/model_names.h"

#include <algorithm>

#include "core/text.h"

namespace llmsim {

namespace {

// [SECTION] Helpers ----------------------------------------------------------------------------------------

bool starts_with_ci(const std::string& s, const std::string& prefix) {
    return s.size() >= prefix.size() && equals_ci(std::string_view(s).substr(0, prefix.size()), prefix);
}

// a quant as Ollama tags and GGUF repos spell it: q4_K_M, q8_0, iq4_xs, fp16, bf16, f32, mxfp4 (the catalog may lack it)
bool looks_like_quant(const std::string& s) {
    const std::string l = lower_ascii(s);
    if (l == "fp16" || l == "f16" || l == "bf16" || l == "f32" || l == "fp32" || l == "mxfp4" || l == "fp8") return true;
    size_t i = 0;
    if (l.size() >= 2 && l[0] == 'i' && l[1] == 'q') i = 2;
    else if (!l.empty() && (l[0] == 'q' || l[0] == 'f')) i = 1;
    else return false;
    return i < l.size() && l[i] >= '0' && l[i] <= '9';
}

// the catalog file type for a spelled quant; "" + err when the catalog lacks it
std::string catalog_quant(const Catalog& cat, const std::string& spelled, const std::string& name, std::string* err) {
    if (const FileType* f = cat.find_file_type(spelled)) return f->name;
    if (err) *err = "'" + name + "' names quant '" + spelled + "', which the catalog does not model (catalog quants: " +
                    cat.file_type_names() + ")";
    return "";
}

size_t edit_distance(const std::string& a, const std::string& b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
}

// [SECTION] Ollama library tags ----------------------------------------------------------------------------

struct TagHit {
    const Model* model = nullptr;
    const OllamaTag* tag = nullptr;
};

// "library/x", "registry.ollama.ai/library/x", "ollama.com/library/x" -> "x"
std::string strip_ollama_prefix(std::string s) {
    for (const char* p : {"https://", "registry.ollama.ai/", "ollama.com/", "library/"})
        if (starts_with_ci(s, p)) s = s.substr(std::char_traits<char>::length(p));
    return s;
}

// the row whose tag is "name:tag" ("name" alone for the library's :latest), or nullptr
TagHit find_tag_row(const Catalog& cat, const std::string& name, const std::string& tag) {
    const std::string want = tag.empty() || equals_ci(tag, "latest") ? name : name + ":" + tag;
    for (const Model& m : cat.models)
        for (const OllamaTag& t : m.ollama_tags)
            if (equals_ci(t.tag, want)) return {&m, &t};
    return {};
}

std::vector<std::string> tags_named(const Catalog& cat, const std::string& name) {
    std::vector<std::string> out;
    for (const Model& m : cat.models)
        for (const OllamaTag& t : m.ollama_tags) {
            const std::string base = t.tag.substr(0, t.tag.find(':'));
            if (equals_ci(base, name)) out.push_back(t.tag);
        }
    return out;
}

// middle words every instruct build's longer tag may carry; the rows add the ones their pages cite ("qwen-distill")
bool variant_ok(const OllamaTag& t, const std::string& variant) {
    static const char* kGeneric[] = {"instruct", "it", "chat"};
    for (const char* g : kGeneric)
        if (equals_ci(variant, g)) return true;
    for (const std::string& v : t.variants)
        if (equals_ci(variant, v)) return true;
    return false;
}

// "qwen2.5:7b", "llama3.1", "llama3.1:8b-instruct-q8_0", "deepseek-r1:32b-qwen-distill-q4_K_M"
std::optional<ResolvedModel> resolve_ollama(const Catalog& cat, const std::string& typed, std::string* err) {
    const std::string s = strip_ollama_prefix(typed);
    const size_t colon = s.find(':');
    const std::string name = s.substr(0, colon);
    std::string tag = colon == std::string::npos ? "" : s.substr(colon + 1);
    if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
    std::string quant;
    if (TagHit h = find_tag_row(cat, name, tag); h.model)
        return ResolvedModel{h.model, h.tag->file_type, false, "Ollama tag " + h.tag->tag};
    const size_t dash = tag.rfind('-');
    if (dash != std::string::npos && looks_like_quant(tag.substr(dash + 1))) {   // "8b-instruct-q8_0"
        quant = tag.substr(dash + 1);
        tag = tag.substr(0, dash);
    }
    const size_t d2 = tag.find('-');
    const std::string size = tag.substr(0, d2), variant = d2 == std::string::npos ? "" : tag.substr(d2 + 1);
    TagHit h = find_tag_row(cat, name, size);
    if (h.model && (d2 != std::string::npos && variant.empty())) h = {};   // "7b-": a dangling dash names nothing
    if (h.model && !variant.empty() && !variant_ok(*h.tag, variant)) {
        if (err)
            *err = equals_ci(variant, "text")
                       ? "'" + typed + "' is the base (text) build of " + h.model->id + ", which the catalog does not hold; " +
                             "its instruct tag is " + h.tag->tag
                       : "unknown Ollama tag '" + typed + "' (cited " + name + " tags: " + joined(tags_named(cat, name)) + ")";
        return std::nullopt;
    }
    if (!h.model) {
        if (err) {
            const std::vector<std::string> known = tags_named(cat, name);
            *err = known.empty() ? std::string()
                                 : "unknown Ollama tag '" + typed + "' (cited " + name + " tags: " + joined(known) + ")";
        }
        return std::nullopt;
    }
    if (quant.empty()) return ResolvedModel{h.model, h.tag->file_type, false, "Ollama tag " + h.tag->tag};
    const std::string ft = catalog_quant(cat, quant, typed, err);
    if (ft.empty()) return std::nullopt;
    if (h.tag->only_file_type && ft != h.tag->file_type) {
        if (err) *err = "'" + typed + "': Ollama ships " + h.tag->tag + " only as " + h.tag->file_type + " (" + h.tag->source + ")";
        return std::nullopt;
    }
    return ResolvedModel{h.model, ft, true, "Ollama tag " + h.tag->tag + " at " + ft};
}

// [SECTION] Hugging Face and GGUF repos ---------------------------------------------------------------------

// the catalog model a GGUF repo's name points at: "Qwen2.5-7B-Instruct-GGUF" -> Qwen/Qwen2.5-7B-Instruct; the older
// "Meta-Llama-3.1-8B-Instruct" repo names (Meta renamed its repos to "Llama-3.1-...") match too
const Model* base_of_repo(const Catalog& cat, std::string repo) {
    if (ends_with_ci(repo, "-GGUF")) repo.resize(repo.size() - 5);
    for (const std::string& cand : {repo, starts_with_ci(repo, "Meta-") ? repo.substr(5) : std::string()}) {
        if (cand.empty()) continue;
        for (const Model& m : cat.models) {
            const size_t slash = m.id.rfind('/');
            if (equals_ci(m.id.substr(slash == std::string::npos ? 0 : slash + 1), cand)) return &m;
        }
    }
    return nullptr;
}

// "hf.co/org/repo[:QUANT]", "huggingface.co/org/repo", "org/repo-GGUF[:QUANT]" (LM Studio, bartowski, unsloth ...)
std::optional<ResolvedModel> resolve_repo(const Catalog& cat, const std::string& typed, std::string* err) {
    std::string s = typed;
    for (const char* p : {"https://", "http://", "www."})
        if (starts_with_ci(s, p)) s = s.substr(std::char_traits<char>::length(p));
    bool hub = false;
    for (const char* p : {"hf.co/", "huggingface.co/"})
        if (starts_with_ci(s, p)) s = s.substr(std::char_traits<char>::length(p)), hub = true;
    const size_t colon = s.find(':');
    const std::string path = s.substr(0, colon), quant = colon == std::string::npos ? "" : s.substr(colon + 1);
    const size_t slash = path.find('/');
    if (slash == std::string::npos || slash == 0 || path.find('/', slash + 1) != std::string::npos) return std::nullopt;
    const std::string repo = path.substr(slash + 1);
    const bool gguf = ends_with_ci(repo, "-GGUF");
    if (!hub && !gguf) return std::nullopt;   // a plain org/name: the catalog id lookup already had its chance
    const Model* m = gguf ? base_of_repo(cat, repo) : cat.find_model_id(path);
    if (!m) {
        if (err) {
            const std::vector<std::string> close = close_model_names(cat, gguf ? repo.substr(0, repo.size() - 5) : repo);
            *err = "'" + typed + "': " + (gguf ? "the GGUF repo's base model '" + repo.substr(0, repo.size() - 5) + "'"
                                               : std::string("'") + path + "'") +
                   " is not in the catalog" + (close.empty() ? std::string() : " (close: " + joined(close) + ")");
        }
        return std::nullopt;
    }
    const std::string via = std::string(hub ? "hf.co " : "") + (gguf ? "GGUF repo " : "repo ") + path;
    if (quant.empty()) return ResolvedModel{m, default_file_type(*m), false, via};
    const std::string ft = catalog_quant(cat, quant, typed, err);
    if (ft.empty()) return std::nullopt;
    return ResolvedModel{m, ft, true, via + " at " + ft};
}

std::optional<ResolvedModel> resolve(const Catalog& cat, const std::string& typed, std::string* err) {
    const std::string name = trim_space(typed);
    if (name.empty()) {
        if (err) *err = "the model name is empty (give a catalog id, an Ollama tag such as qwen2.5:7b, or a GGUF repo)";
        return std::nullopt;
    }
    if (const Model* m = cat.find_model_id(name)) return ResolvedModel{m, "", false, "catalog id"};
    std::string why;
    if (auto r = resolve_repo(cat, name, err ? &why : nullptr)) return r;
    if (why.empty())
        if (auto r = resolve_ollama(cat, name, err ? &why : nullptr)) return r;
    if (err) {
        if (why.empty()) {
            const std::vector<std::string> close = close_model_names(cat, name);
            why = "unknown model '" + name + "' (not in the catalog" + (close.empty() ? std::string() : "; close: " + joined(close)) + ")";
        }
        *err = why;
    }
    return std::nullopt;
}

}  // namespace

// [SECTION] API ----------------------------------------------------------------------------------------------

std::optional<ResolvedModel> resolve_model_name(const Catalog& cat, const std::string& name, std::string& err) {
    return resolve(cat, name, &err);
}

std::string with_model_hint(const std::string& err, const std::string& hint) {
    if (err.rfind("unknown model '", 0) == 0 && !err.empty() && err.back() == ')')
        return err.substr(0, err.size() - 1) + "; " + hint + ")";
    return err + " (" + hint + ")";
}

std::optional<ResolvedModel> resolve_model_name_quiet(const Catalog& cat, const std::string& name) {
    return resolve(cat, name, nullptr);
}

std::optional<std::string> pick_file_type(const ResolvedModel& r, const std::string* quant_option, std::string& err) {
    if (quant_option && !quant_option->empty()) {
        if (r.file_type_named && !equals_ci(*quant_option, r.file_type)) {
            err = "the model name (" + r.via + ") names quant " + r.file_type + " but the quant given is " + *quant_option +
                  "; drop one of them";
            return std::nullopt;
        }
        return *quant_option;
    }
    if (!r.file_type.empty()) return r.file_type;
    return r.model ? default_file_type(*r.model) : std::string("Q4_K_M");
}

std::vector<std::string> close_model_names(const Catalog& cat, const std::string& name, size_t n) {
    const std::string key = lower_ascii(trim_space(name));
    std::vector<std::pair<size_t, std::string>> scored;
    auto consider = [&](const std::string& cand, const std::string& shown) {
        const std::string l = lower_ascii(cand);
        size_t d = edit_distance(key, l);
        if (key.size() >= 3 && l.find(key) != std::string::npos) d = std::min<size_t>(d, 1);   // "qwen2.5" in "qwen2.5:7b"
        if (d <= std::max<size_t>(2, key.size() / 3)) scored.push_back({d, shown});
    };
    for (const Model& m : cat.models) {
        consider(m.id, m.id);
        const size_t slash = m.id.rfind('/');
        if (slash != std::string::npos) consider(m.id.substr(slash + 1), m.id);
        for (const OllamaTag& t : m.ollama_tags) consider(t.tag, t.tag);
    }
    std::stable_sort(scored.begin(), scored.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (const auto& s : scored) {
        if (out.size() >= n) break;
        if (std::find(out.begin(), out.end(), s.second) == out.end()) out.push_back(s.second);
    }
    return out;
}

std::string ollama_tag_for(const Model& m, const std::string& file_type) {
    for (const OllamaTag& t : m.ollama_tags)
        if (equals_ci(t.file_type, file_type)) return t.tag;
    return "";
}

}  // namespace llmsim
