// `llmsim-cli page`: one model's seed-format page (header facts, quantization footprint, hardware leaderboard,
// context scaling, llama-server command, own/cloud/API cost, FAQ), or one section of it as an HTML or Markdown
// snippet for docs that do not allow iframes. What each section computes and says (rows, cost inputs, the FAQ's
// words) comes from the section builders the app uses too (engine/report/sections.h); this file chooses the page's
// scenario and lays the rows out, and computes no number of its own.
// [SECTION] build   [SECTION] text helpers   [SECTION] HTML   [SECTION] Markdown   [SECTION] command
#include "page.h"

#include <algorithm>
#include <cstdio>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "core/assets.h"
#include "core/format.h"
#include "quant/quant_rules.h"
#include "runtime/runtime.h"
#include "evidence/evidence.h"
#include "sim/speed_labels.h"
#include "rig/resolve_device.h"

namespace llmsim::cli {

// [SECTION] build ---------------------------------------------------------------------------------------------

namespace {

// the request ui/derived.cpp request_from_scenario() builds from the app's default scenario
SimRequest base_request(const PageData& d) {
    SimRequest r;
    r.memory.file_type = d.s.quant;
    r.memory.n_ctx = d.s.ctx_tokens;
    r.memory.hardware = d.hardware;
    r.prompt_tokens = d.s.prompt_tokens;
    r.gen_tokens = d.s.gen_tokens;
    r.memory.with_notes = false;
    return r;
}

// the leaderboard's rows in the seed's order, with the measured runs on each device
void build_devices(const Catalog& cat, PageData& d) {
    for (DeviceRow& row : seed_ordered_device_rows(device_rows(cat, *d.model, base_request(d)))) {
        PageDevice pd;
        for (const EvidenceRow& ev : find_evidence(cat, *d.model, *row.hardware, d.s.quant, 100000)) {
            ++pd.evidence_rows;
            if (ev.match >= 2) ++pd.evidence_same_model;
        }
        pd.row = std::move(row);
        d.devices.push_back(std::move(pd));
    }
}

// the cost section with the default scenario: catalog prices (report/sections.h cost_inputs)
void build_cost(PageData& d) {
    CostScenario cs;
    cs.mtok_per_month = d.s.mtok_per_month;
    cs.kwh_price_usd = d.s.kwh_price_usd;
    cs.amortize_months = d.s.amortize_months;
    d.cost_in = cost_inputs(d.model, d.hardware, d.current.speed, cs);
    d.cost = estimate_cost(d.cost_in);
}

void build_faq(PageData& d, const Candidate* cheapest);

}  // namespace

const std::vector<std::string>& page_sections() {
    static const std::vector<std::string> s = {"facts", "quants", "leaderboard", "context", "command", "cost", "faq"};
    return s;
}

std::string page_dir(const Model& m) { return "models/" + m.id + "/"; }

bool build_page(const Catalog& cat, const Model& model, PageData& d, std::string& err) {
    d = PageData();
    d.model = &model;
    d.s.quant = default_file_type(model);
    d.s.ctx_tokens = std::min<int64_t>(model.native_context > 0 ? model.native_context : 32768, 32768);
    if (!count_params(model, d.params, err)) return false;
    // the page's device: the FAQ's cheapest answer (a catalog device or a multi-GPU combination of one, both known
    // to find_hardware and the app's hardware= key), else the app's default
    const RecommendResult rr = cheapest_usable(cat, model, d.s.quant, d.s.ctx_tokens);
    const Candidate* cheapest = first_priced(rr);
    d.s.hardware = cheapest ? cheapest->hardware.id : "rtx-4090";
    d.hardware = resolve_device(cat, d.s.hardware);
    if (!d.hardware) { err = "the catalog has no device '" + d.s.hardware + "'"; return false; }
    SimRequest cur = base_request(d);
    cur.memory.with_notes = true;
    if (!evaluate(cat, model, cur, d.current, err)) return false;
    d.quants = common_quant_rows(quant_rows(cat, model, base_request(d), d.s.ctx_b_tokens));
    build_devices(cat, d);
    for (const ContextPoint& p : context_rows(cat, model, base_request(d)))
        if (is_power_of_two_context(p.ctx_tokens)) d.context.push_back(p);
    build_cost(d);
    // derived.cpp command_request: auto GPU layers become the partial placement the estimate chose
    SimRequest cmd = base_request(d);
    if (d.current.memory.status == FitStatus::PartialOffload) cmd.memory.n_gpu_layers = d.current.memory.gpu_layers;
    d.command = runtime(cmd.engine)->command_line(cat, model, cmd, 8080);
    build_faq(d, cheapest);
    return true;
}

// [SECTION] text helpers ----------------------------------------------------------------------------------------

namespace {

std::string gib2(uint64_t bytes) { return format_fixed((double)bytes / (double)kGiB, 2); }
std::string usd(double v) { return v < 0 ? "—" : "$" + format_fixed(v, 2); }

// the device side of the total, as "Total / Limit" shows it (simulate.h limit_side_bytes)
std::string total_limit(const MemoryBreakdown& mb) {
    return format_fixed((double)limit_side_bytes(mb) / (double)kGiB, 1) + " / " + format_fixed((double)mb.usable_bytes / (double)kGiB, 1);
}

std::string status_words(const MemoryBreakdown& mb) {   // as `fit` prints it (cmd_memory.cpp status_text)
    std::string s = to_string(mb.status);
    if (mb.status == FitStatus::PartialOffload)
        s += " (" + std::to_string(std::min(mb.gpu_layers, mb.n_layers)) + " of " + std::to_string(mb.n_layers) + " layers on GPU)";
    return s;
}

std::string decode_cell(const PageDevice& r) {
    const SpeedView& sp = r.row.eval.speed;
    if (!sp.ok) return r.row.eval.memory.status == FitStatus::Oom ? "OOM" : "—";
    return format_sig(sp.decode_empty_tps) + " → " + format_sig(sp.decode_full_tps) + " (" + format_sig(sp.decode_full_low) + "–" +
           format_sig(sp.decode_full_high) + ")";
}

std::string evidence_cell(const PageDevice& r) {
    if (r.evidence_rows == 0) return "none";
    return std::to_string(r.evidence_rows) + (r.evidence_same_model ? " (" + std::to_string(r.evidence_same_model) + " this model)" : "");
}

std::string attention_words(const Model& m) {
    std::string attn = m.mla ? "MLA" : (m.n_kv_heads == 1 ? "MQA" : m.n_kv_heads == m.n_heads ? "MHA" : "GQA");
    return attn + " (" + std::to_string(m.n_kv_heads) + " KV / " + std::to_string(m.n_heads) + " Q heads)" + (m.swa ? " + sliding window" : "");
}

std::string params_words(const PageData& d) {
    if (d.model->is_moe())
        return format_sig(d.params.total / 1e9) + "B total, " + format_sig(d.params.active / 1e9) + "B active per token (MoE)";
    return format_sig(d.params.total / 1e9) + "B (dense)";
}

struct Table {
    std::string id, caption;
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;   // column 0 is the row header
    std::vector<std::vector<std::string>> data;   // per row, per column: a machine-readable value ("" = none)
    std::vector<std::string> links;               // per row: a "Simulate" link ("" = none)
};

// the facts of the page header, as label / value pairs (panel_model.cpp's lines)
std::vector<std::pair<std::string, std::string>> header_facts(const PageData& d) {
    const Model& m = *d.model;
    std::vector<std::pair<std::string, std::string>> f = {
        {"Parameters", params_words(d)},
        {"Attention", attention_words(m)},
        {"Layers × hidden", std::to_string(m.n_layers) + " × " + std::to_string(m.hidden_size)},
        {"Native context", format_tokens(m.native_context) + " tokens" +
                               (m.extended_context > 0 ? " (" + format_tokens(m.extended_context) + " with " + m.rope_scaling + ")" : "")},
        {"MoE experts", m.is_moe() ? std::to_string(m.moe->n_experts) + " experts, " + std::to_string(m.moe->n_experts_active) + " active per token"
                                   : "none (dense)"},
        {"License", m.license.empty() ? "—" : m.license},
    };
    if (m.api_price_in_usd_per_mtok >= 0)
        f.push_back({"Serverless API", "$" + format_fixed(m.api_price_in_usd_per_mtok, 2) + " in / $" + format_fixed(m.api_price_out_usd_per_mtok, 2) +
                                           " out per 1M tokens" + (m.api_price_provider.empty() ? "" : " (" + m.api_price_provider + ")")});
    return f;
}

Table quants_table(const PageData& d) {
    Table t{"quants", "Quantization memory footprint of " + d.model->name + " (weights, f16 KV cache, compute buffers and overhead; no device)",
            {"Quantization", "Bits per weight", "Weights only (GiB)", "Total @ " + format_tokens(d.s.ctx_b_tokens) + " ctx (GiB)",
             "Total @ " + format_tokens(d.s.ctx_tokens) + " ctx (GiB)", "Quality"}, {}, {}, {}};
    for (const QuantRow& q : d.quants) {
        t.rows.push_back({q.file_type->name, format_fixed(q.bits_per_weight, 2), gib2(q.weights_bytes), gib2(q.total_b_bytes), gib2(q.total_a_bytes),
                          q.file_type->quality_label});
        t.data.push_back({q.file_type->name, "", std::to_string(q.weights_bytes), std::to_string(q.total_b_bytes), std::to_string(q.total_a_bytes), ""});
        t.links.push_back("");
    }
    return t;
}

Table leaderboard_table(const PageData& d) {
    Table t{"leaderboard", "Hardware leaderboard: " + d.model->name + " " + d.s.quant + " at a " + format_tokens(d.s.ctx_tokens) +
                               " context (decode from an empty to the full context, 5th–95th percentile band at the full context)",
            {"Hardware", "Status", "Total / limit (GiB)", "Decode, empty → " + format_tokens(d.s.ctx_tokens) + " (tok/s)", "TTFT, 4k prompt (s)",
             "Max safe context (tokens)", "Measured runs", "Simulate"}, {}, {}, {}};
    for (const PageDevice& r : d.devices) {
        const MemoryBreakdown& mb = r.row.eval.memory;
        const SpeedView& sp = r.row.eval.speed;
        t.rows.push_back({r.row.hardware->name, status_words(mb), total_limit(mb), decode_cell(r), sp.ok ? format_sig(sp.ttft_s) : "—",
                          mb.max_context > 0 ? format_tokens(mb.max_context) : "OOM", evidence_cell(r), ""});
        t.data.push_back({r.row.hardware->id, to_string(mb.status), std::to_string(mb.total_bytes), sp.ok ? std::to_string(sp.decode_full_tps) : "",
                          "", std::to_string(mb.max_context), "", ""});
        t.links.push_back(page_hash(d, r.row.hardware->id));
    }
    return t;
}

Table context_table(const PageData& d) {
    Table t{"context", "Context scaling of " + d.model->name + " " + d.s.quant + " on " + d.hardware->name + " (f16 KV cache; decode at a full context)",
            {"Context (tokens)", "KV cache (GiB)", "Total (GiB)", "Decode at full context (tok/s)", "Status"}, {}, {}, {}};
    for (const ContextPoint& p : d.context) {
        t.rows.push_back({format_tokens(p.ctx_tokens), gib2(p.kv_bytes), gib2(p.total_bytes), p.decode_tokens_per_s > 0 ? format_sig(p.decode_tokens_per_s) : "—",
                          to_string(p.status)});
        t.data.push_back({std::to_string(p.ctx_tokens), std::to_string(p.kv_bytes), std::to_string(p.total_bytes), "", ""});
        t.links.push_back("");
    }
    return t;
}

Table cost_table(const PageData& d) {
    const CostResult& r = d.cost;
    Table t{"cost", "Monthly cost of " + format_sig(d.s.mtok_per_month) + " M tokens (3:1 input:output) of " + d.model->name + " " + d.s.quant +
                        " on " + d.hardware->name,
            {"Option", "Cost (USD per month)", "How"}, {}, {}, {}};
    t.rows.push_back({"Own the hardware", usd(r.own_usd_per_month),
                      std::to_string(r.devices_needed) + (r.devices_needed == 1 ? " device" : " devices") + ", amortised over " + std::to_string(d.s.amortize_months) + " months + power for " +
                          format_sig(r.active_hours_per_month) + " active h at $" + format_fixed(d.s.kwh_price_usd, 2) + "/kWh"});
    t.rows.push_back({"Rent a cloud GPU", usd(r.rent_usd_per_month),
                      r.rent_usd_per_month >= 0 ? format_sig(r.active_hours_per_month) + " h at $" + format_fixed(d.cost_in.cloud_usd_per_hour, 2) + "/h"
                                                : "no sourced rental price"});
    t.rows.push_back({"Serverless API", usd(r.api_usd_per_month), r.api_usd_per_month >= 0 ? "catalog price per 1M tokens" : "no API price known"});
    for (size_t i = 0; i < 3; ++i) t.links.push_back("");
    t.data = {{"own", format_fixed(r.own_usd_per_month, 6), ""}, {"rent", format_fixed(r.rent_usd_per_month, 6), ""},
              {"api", format_fixed(r.api_usd_per_month, 6), ""}};
    return t;
}

}  // namespace

std::string page_hash(const PageData& d, const std::string& hardware_id) {
    return "model=" + d.model->id + "&hardware=" + (hardware_id.empty() ? d.s.hardware : hardware_id) + "&quant=" + d.s.quant +
           "&ctx=" + std::to_string(d.s.ctx_tokens);
}

std::string html_escape(const std::string& s) {
    std::string o;
    o.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': o += "&amp;"; break;
            case '<': o += "&lt;"; break;
            case '>': o += "&gt;"; break;
            case '"': o += "&quot;"; break;
            default: o += c;
        }
    }
    return o;
}

namespace {

// the app's FAQ (report/sections.h faq_entries) for the page's scenario, without the hints at the app's sections
void build_faq(PageData& d, const Candidate* cheapest) {
    FaqInputs fi;
    fi.model = d.model;
    fi.quant = d.s.quant;
    fi.kv_type = "f16";   // the app's default (Scenario::kv_type)
    fi.ctx_tokens = d.s.ctx_tokens;
    fi.memory = &d.current.memory;
    fi.cheapest = cheapest;
    fi.context = &d.context;
    fi.hardware = d.hardware;
    fi.cost = &d.cost;
    fi.mtok_per_month = d.s.mtok_per_month;
    fi.amortize_months = d.s.amortize_months;
    d.faq = faq_entries(fi);
}

}  // namespace

// [SECTION] HTML ------------------------------------------------------------------------------------------------

const char* site_css() {
    return R"CSS(:root{color-scheme:light dark;--bg:#fbfbf8;--fg:#1d2126;--muted:#50575f;--line:#d5d8dc;--head:#eef0f2;--accent:#0b57a4;
--ok:#17673a;--tight:#8a5a00;--blue:#1c4fa0;--bad:#a3201b}
@media (prefers-color-scheme:dark){:root{--bg:#16191d;--fg:#e3e6e9;--muted:#a9b0b8;--line:#3a4048;--head:#22272d;--accent:#8cc2ff;
--ok:#6fd69b;--tight:#f0c060;--blue:#9dbcff;--bad:#ff9b94}}
*{box-sizing:border-box}body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Inter,sans-serif}
.page{max-width:72rem;margin:0 auto;padding:1rem 1.25rem 3rem}a{color:var(--accent)}a:focus-visible,input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
nav{font-size:.9rem;margin-bottom:.5rem}.crumbs{color:var(--muted);margin:.25rem 0}h1{font-size:1.7rem;line-height:1.25;margin:.25rem 0 .75rem}
h2{font-size:1.3rem;margin:2rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.25rem}h3{font-size:1.05rem;margin:1.25rem 0 .25rem}
.open{display:inline-block;padding:.45rem .9rem;border:1px solid var(--accent);border-radius:.4rem;text-decoration:none;font-weight:600}
dl.facts{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(14rem,42%),1fr));gap:.5rem 1.25rem;margin:1rem 0}
dl.facts div{border-left:3px solid var(--line);padding-left:.6rem}dt{color:var(--muted);font-size:.85rem}dd{margin:0;font-weight:600}
.scroll{overflow-x:auto;-webkit-overflow-scrolling:touch}table{border-collapse:collapse;width:100%;font-size:.9rem;font-variant-numeric:tabular-nums}
caption{text-align:left;color:var(--muted);padding:.25rem 0 .5rem;caption-side:top;position:sticky;left:0;max-width:calc(100vw - 2.5rem)}th,td{border-bottom:1px solid var(--line);padding:.3rem .5rem;vertical-align:top}
thead th{background:var(--head);text-align:left;font-weight:600}tbody th{text-align:left;font-weight:500}td.n{text-align:right;white-space:nowrap}
.s-COMFORTABLE{color:var(--ok)}.s-TIGHT{color:var(--tight)}.s-TUNABLE_UMA,.s-PARTIAL_OFFLOAD{color:var(--blue)}.s-OOM{color:var(--bad)}
pre{background:var(--head);padding:.75rem;border-radius:.4rem;overflow-x:auto;white-space:pre-wrap;word-break:break-all}
code{font-family:"JetBrains Mono",ui-monospace,monospace;font-size:.88rem}.note{color:var(--muted);font-size:.9rem}
footer{margin-top:3rem;color:var(--muted);font-size:.85rem}input[type=search]{font:inherit;padding:.4rem .6rem;width:min(30rem,100%);
border:1px solid var(--line);border-radius:.4rem;background:var(--bg);color:var(--fg)}
@media (max-width:40rem){.page{padding:.75rem}h1{font-size:1.35rem}table{font-size:.82rem}th,td{padding:.3rem .35rem}
tbody th{position:sticky;left:0;background:var(--bg);min-width:8.5rem;box-shadow:1px 0 0 var(--line)}}
@media print{:root{--bg:#fff;--fg:#000;--muted:#333;--line:#999;--head:#eee;--accent:#000}nav,.open,td.sim,th.sim,input{display:none}
.page{max-width:none;padding:0}body{font-size:10.5pt}h2{break-after:avoid}tr,dl.facts div,pre{break-inside:avoid}
.scroll{overflow:visible}a{text-decoration:none}}
)CSS";
}

const char* kCsp = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
                   "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'";

namespace {

// the relative way from a model page (models/<org>/<name>/) to the site root
std::string root_from_page(const Model& m) {
    std::string up;
    for (char c : page_dir(m)) if (c == '/') up += "../";
    return up;
}

// right-aligned columns: a unit in parentheses, or bits per weight
bool numeric_column(const std::string& header) {
    return (header.find('(') != std::string::npos && header.find("Status") == std::string::npos) || header == "Bits per weight";
}

std::string table_html(const Table& t, const std::string& app_url) {
    std::string o = "<div class=\"scroll\"><table id=\"t-" + t.id + "\"><caption>" + html_escape(t.caption) + "</caption><thead><tr>";
    for (const std::string& h : t.header)
        o += std::string("<th scope=\"col\"") + (h == "Simulate" ? " class=\"sim\"" : "") + ">" + html_escape(h) + "</th>";
    o += "</tr></thead><tbody>";
    for (size_t r = 0; r < t.rows.size(); ++r) {
        const auto& row = t.rows[r];
        o += "<tr>";
        for (size_t c = 0; c < row.size(); ++c) {
            const std::string& v = t.data.size() > r && t.data[r].size() > c ? t.data[r][c] : "";
            const std::string attr = v.empty() ? "" : " data-v=\"" + html_escape(v) + "\"";
            if (c == 0) { o += "<th scope=\"row\"" + attr + ">" + html_escape(row[c]) + "</th>"; continue; }
            if (t.header[c] == "Simulate") {
                o += "<td class=\"sim\"><a href=\"" + html_escape(app_url + t.links[r]) + "\" aria-label=\"Simulate on " + html_escape(row[0]) +
                     "\">Simulate →</a></td>";
                continue;
            }
            std::string cls = t.header[c] == "Status" ? " class=\"s-" + v + "\"" : numeric_column(t.header[c]) ? " class=\"n\"" : "";
            o += "<td" + cls + attr + ">" + html_escape(row[c]) + "</td>";
        }
        o += "</tr>";
    }
    return o + "</tbody></table></div>\n";
}

std::string facts_html(const PageData& d) {
    std::string o = "<dl class=\"facts\">";
    for (const auto& f : header_facts(d)) o += "<div><dt>" + html_escape(f.first) + "</dt><dd>" + html_escape(f.second) + "</dd></div>";
    return o + "</dl>\n";
}

std::string section_html(const PageData& d, const std::string& id, const std::string& app_url) {
    auto h2 = [&](const std::string& title) { return "<section id=\"" + id + "\" aria-labelledby=\"h-" + id + "\"><h2 id=\"h-" + id + "\">" + title + "</h2>\n"; };
    if (id == "facts") return "<section id=\"facts\" aria-label=\"Model facts\">" + facts_html(d) + "</section>\n";
    if (id == "quants") return h2("Quantization memory footprint") + table_html(quants_table(d), app_url) +
                               "<p class=\"note\">Bits per weight is the effective rate of llama.cpp's per-tensor type mix; 1 GiB = 2<sup>30</sup> bytes "
                               "(1 GiB = 1.074 GB).</p></section>\n";
    if (id == "leaderboard") return h2("Hardware compatibility and speed leaderboard") + table_html(leaderboard_table(d), app_url) +
                                    "<p class=\"note\">Limit = usable memory of the device in GiB. Decode is tg128, batch 1, flash attention on; "
                                    "the band is the 5th–95th percentile of held-out errors for the device's class on a current llama.cpp build, "
                                    "with the publication and its devices left out. Measured runs = "
                                    "llama.cpp rows in the calibration data on that device.</p></section>\n";
    if (id == "context") return h2("Context scaling on " + html_escape(d.hardware->name)) + table_html(context_table(d), app_url) + "</section>\n";
    if (id == "command") return h2("llama.cpp server command") + "<p>For " + html_escape(d.hardware->name) + ", " + html_escape(d.s.quant) + ", " +
                                format_tokens(d.s.ctx_tokens) + " context:</p><pre><code>" + html_escape(d.command) + "</code></pre></section>\n";
    if (id == "cost") return h2("Buy vs cloud vs API: monthly cost") + table_html(cost_table(d), app_url) + "<p>" + html_escape(cost_summary(d.cost)) +
                             "</p></section>\n";
    if (id == "faq") {
        std::string o = h2("FAQ: " + html_escape(d.model->name));
        for (const FaqEntry& qa : d.faq) o += "<h3>" + html_escape(qa.question) + "</h3><p>" + html_escape(qa.answer) + "</p>\n";
        return o + "</section>\n";
    }
    return "";
}

std::string faq_json_ld(const PageData& d) {
    nlohmann::json items = nlohmann::json::array();
    for (const FaqEntry& qa : d.faq)
        items.push_back({{"@type", "Question"}, {"name", qa.question}, {"acceptedAnswer", {{"@type", "Answer"}, {"text", qa.answer}}}});
    std::string s = nlohmann::json{{"@context", "https://schema.org"}, {"@type", "FAQPage"}, {"mainEntity", items}}.dump();
    for (size_t i = 0; (i = s.find("</", i)) != std::string::npos; i += 3) s.replace(i, 2, "<\\/");
    return s;
}

}  // namespace

std::string page_title(const PageData& d) { return d.model->name + " — VRAM, KV cache and hardware matrix · llmsim"; }

std::string page_description(const PageData& d) {
    const MemoryBreakdown& mb = d.current.memory;
    size_t fitting = 0;
    for (const PageDevice& r : d.devices) fitting += r.row.eval.speed.ok ? 1 : 0;
    return d.model->name + " in " + d.s.quant + " needs " + format_gib((double)mb.total_bytes) + " at a " + format_tokens(d.s.ctx_tokens) +
           " context. Fit, decode speed and time to first token on " + std::to_string(d.devices.size()) + " devices (" + std::to_string(fitting) +
           " run it), context scaling, the llama-server command and own/cloud/API cost.";
}

std::string html_head(const std::string& title, const std::string& description, const std::string& canonical, const std::string& css_href,
                      const std::string& extra) {
    std::string o = "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                    "<meta http-equiv=\"Content-Security-Policy\" content=\"" + std::string(kCsp) + "\">\n"
                    "<meta name=\"color-scheme\" content=\"light dark\">\n<link rel=\"icon\" href=\"data:,\">\n<title>" + html_escape(title) + "</title>\n"
                    "<meta name=\"description\" content=\"" + html_escape(description) + "\">\n"
                    "<link rel=\"canonical\" href=\"" + html_escape(canonical) + "\">\n"
                    "<meta property=\"og:type\" content=\"article\"><meta property=\"og:site_name\" content=\"llmsim\">\n"
                    "<meta property=\"og:title\" content=\"" + html_escape(title) + "\">\n"
                    "<meta property=\"og:description\" content=\"" + html_escape(description) + "\">\n"
                    "<meta property=\"og:url\" content=\"" + html_escape(canonical) + "\">\n";
    o += css_href.empty() ? "<style>" + std::string(site_css()) + "</style>\n" : "<link rel=\"stylesheet\" href=\"" + css_href + "\">\n";
    return o + extra + "</head>\n";
}

std::string render_page_html(const PageData& d, const PageOptions& opts) {
    // a snippet pasted into other docs links to the hosted simulator when --base-url says where it is
    const std::string root = opts.snippet && !opts.base_url.empty() ? opts.base_url : root_from_page(*d.model);
    const std::string app_url = root + "index.html#";
    std::string body;
    for (const std::string& id : page_sections())
        if (opts.section.empty() || opts.section == id) body += section_html(d, id, app_url);
    if (opts.snippet) return body;
    const std::string canonical = opts.base_url.empty() ? "./" : opts.base_url + page_dir(*d.model);
    const Model& m = *d.model;
    std::string o = html_head(page_title(d), page_description(d), canonical, opts.inline_css ? "" : root + "models/site.css",
                              "<script type=\"application/ld+json\">" + faq_json_ld(d) + "</script>\n");
    o += "<body><div class=\"page\"><header><nav aria-label=\"Site\"><a href=\"" + root + "index.html\">llmsim simulator</a> · <a href=\"" + root +
         "models/index.html\">All models</a>" +
         std::string(opts.inline_css ? "" : " · <a href=\"index.md\" type=\"text/markdown\">This page as Markdown</a>") + "</nav>\n<p class=\"crumbs\">" + html_escape(m.family) + " · HF: " + html_escape(m.id) + "</p>\n"
         "<h1>" + html_escape(m.name) + " — VRAM, KV cache and hardware matrix</h1>\n"
         "<p><a class=\"open\" href=\"" + html_escape(app_url + page_hash(d)) + "\">Open in the simulator</a> <span class=\"note\">" +
         html_escape(d.s.quant) + ", " + format_tokens(d.s.ctx_tokens) + " context, " + html_escape(d.hardware->name) + "</span></p></header>\n<main>\n";
    o += body;
    o += "</main><footer><p>Generated by llmsim-cli " + std::string(version()) + " from the same engine as the simulator: memory per llama.cpp's "
         "accounting, speeds from a model calibrated on measured llama.cpp runs. GiB = 2<sup>30</sup> bytes, GB = 10<sup>9</sup> bytes.</p>"
         "</footer></div></body></html>\n";
    return o;
}

// [SECTION] Markdown ------------------------------------------------------------------------------------------

namespace {

std::string md_cell(std::string s) {
    for (size_t i = 0; (i = s.find('|', i)) != std::string::npos; i += 2) s.replace(i, 1, "\\|");
    return s;
}

std::string table_md(const Table& t) {
    std::string o = "*" + t.caption + "*\n\n|";
    size_t cols = 0;
    std::string align = "|";
    for (const std::string& h : t.header)
        if (h != "Simulate") { o += " " + md_cell(h) + " |"; align += cols++ > 0 && numeric_column(h) ? "---:|" : "---|"; }
    o += "\n" + align;
    o += "\n";
    for (const auto& row : t.rows) {
        o += "|";
        for (size_t c = 0; c < row.size(); ++c) if (t.header[c] != "Simulate") o += " " + md_cell(row[c]) + " |";
        o += "\n";
    }
    return o + "\n";
}

std::string section_md(const PageData& d, const std::string& id) {
    if (id == "facts") {
        std::string o;
        for (const auto& f : header_facts(d)) o += "- **" + f.first + "**: " + f.second + "\n";
        return o + "\n";
    }
    if (id == "quants") return "## Quantization memory footprint\n\n" + table_md(quants_table(d));
    if (id == "leaderboard") return "## Hardware compatibility and speed leaderboard\n\n" + table_md(leaderboard_table(d));
    if (id == "context") return "## Context scaling on " + d.hardware->name + "\n\n" + table_md(context_table(d));
    if (id == "command") return "## llama.cpp server command\n\n```sh\n" + d.command + "\n```\n\n";
    if (id == "cost") return "## Buy vs cloud vs API: monthly cost\n\n" + table_md(cost_table(d)) + cost_summary(d.cost) + "\n\n";
    if (id == "faq") {
        std::string o = "## FAQ\n\n";
        for (const FaqEntry& qa : d.faq) o += "### " + qa.question + "\n\n" + qa.answer + "\n\n";
        return o;
    }
    return "";
}

}  // namespace

std::string render_page_md(const PageData& d, const PageOptions& opts) {
    std::string o;
    if (opts.section.empty()) o = "# " + d.model->name + " — VRAM, KV cache and hardware matrix\n\n" + d.model->family + " · HF: " + d.model->id + "\n\n";
    for (const std::string& id : page_sections())
        if (opts.section.empty() || opts.section == id) o += section_md(d, id);
    return o;
}

// [SECTION] command -------------------------------------------------------------------------------------------

int cmd_page(int argc, char** argv) {
    Args a = parse_args(argc, argv, {"help", "snippet"});
    if (a.has("help")) {
        printf("usage: llmsim-cli page --model ID [--section facts|quants|leaderboard|context|command|cost|faq] [--format html|md]\n"
               "         [--snippet] [--base-url URL]\n"
               "The model's page in the seed's format (HTML by default, self-contained), or one section of it (--section) to paste\n"
               "into docs that do not allow iframes. --snippet: HTML without <html>/<head>. Same numbers as the simulator at\n"
               "the page's scenario (release format, min(native, 32k) context, the cheapest device that runs it usably).\n");
        return 0;
    }
    const std::string* id = a.get("model");
    if (!id) return fail("page: --model ID is required (llmsim-cli catalog --models lists them)");
    PageOptions opts;
    if (const std::string* s = a.get("section")) {
        const auto& all = page_sections();
        if (std::find(all.begin(), all.end(), *s) == all.end())
            return fail("page: unknown --section '" + *s + "' (facts, quants, leaderboard, context, command, cost, faq)");
        opts.section = *s;
        opts.snippet = true;
    }
    const std::string format = a.get("format") ? *a.get("format") : "html";
    if (format != "html" && format != "md") return fail("page: --format must be html or md (got '" + format + "')");
    if (const std::string* b = a.get("base-url")) opts.base_url = *b + (b->empty() || b->back() == '/' ? "" : "/");
    if (a.has("snippet")) opts.snippet = true;
    opts.inline_css = true;
    for (const auto& kv : a.options)
        if (kv.first != "model" && kv.first != "section" && kv.first != "format" && kv.first != "base-url" && kv.first != "snippet")
            return fail("page: unknown option --" + kv.first + " (try llmsim-cli page --help)");
    if (!a.positional.empty()) return fail("page: unexpected argument '" + a.positional[0] + "'");
    Catalog cat;
    if (!load_catalog(cat)) return 1;
    const Model* m = cat.find_model(*id);
    if (!m) return fail("page: " + unknown_model_message(cat, *id));
    PageData d;
    std::string err;
    if (!build_page(cat, *m, d, err)) return fail("page: " + *id + ": " + err);
    const std::string out = format == "md" ? render_page_md(d, opts) : render_page_html(d, opts);
    fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace llmsim::cli
