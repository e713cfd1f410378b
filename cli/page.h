// The static model pages (`llmsim-cli page`, `llmsim-cli site`): one model's seed-format page built from the same
// section builders the app's sections and window.llmsim.results() use (engine/report/sections.h), rendered as HTML
// or Markdown.
//   PageData d;
//   if (build_page(cat, *cat.find_model("Qwen/Qwen2.5-72B-Instruct"), d, err)) puts(render_page_html(cat, d, opts).c_str());
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "catalog/catalog.h"
#include "report/sections.h"
#include "serving/cost.h"
#include "sim/recommend.h"
#include "sim/simulate.h"

namespace llmsim::cli {

// the app's Scenario defaults (ui/app_state.h) for the inputs a page does not vary; the e2e test compares the
// page with window.llmsim.results() at {model, hardware, quant, ctx}, so a drift shows there
struct PageScenario {
    std::string quant;                 // the model's release format (default_file_type)
    int64_t ctx_tokens = 0;            // min(native context, 32k): the seed's leaderboard context
    int64_t ctx_b_tokens = 8192;       // the quant table's second column (Scenario::ctx_b_tokens)
    int64_t prompt_tokens = 4096;      // TTFT prompt (Scenario::prompt_tokens)
    int64_t gen_tokens = 512;
    double mtok_per_month = 60.0;      // cost inputs (Scenario::mtok_per_month, kwh_price_usd, amortize_months)
    double kwh_price_usd = 0.17;
    int amortize_months = 36;
    std::string hardware;              // the device of the context table, command and cost: the FAQ's cheapest answer
};

// a leaderboard row with the calibration rows measured on its device
struct PageDevice { DeviceRow row; size_t evidence_rows = 0, evidence_same_model = 0; };

struct PageData {
    const Model* model = nullptr;
    const Hardware* hardware = nullptr;   // the page's device (PageScenario::hardware; a catalog device or a combination)
    PageScenario s;
    ParamCounts params;
    Evaluation current;                   // the scenario on the page's device
    std::vector<QuantRow> quants;         // common file types, largest bpw first (report/sections.h common_quant_rows)
    std::vector<PageDevice> devices;      // every catalog device, best status first (seed_ordered_device_rows)
    std::vector<ContextPoint> context;    // the powers of two of context_rows: 1k to the model's largest context
    std::string command;                  // llama-server command line for the page's device
    CostInputs cost_in;
    CostResult cost;
    std::vector<FaqEntry> faq;            // faq_entries without the app's hints (visible text = JSON-LD text)
};

struct PageOptions {
    std::string base_url;                 // "https://example.org/llmsim/" → absolute canonical / og:url; "" = relative
    std::string section;                  // "" = the whole page; quants|leaderboard|context|command|cost|faq
    bool snippet = false;                 // true: the section(s) only, no <html> around (copyable into docs)
    bool inline_css = false;              // true: the stylesheet inside the page (a single file); false: ../../site.css
};

// the page's numbers; false + err when the model cannot be evaluated
bool build_page(const Catalog& cat, const Model& model, PageData& out, std::string& err);
// "models/Qwen/Qwen2.5-72B-Instruct/" (the page's folder under the site root)
std::string page_dir(const Model& m);
// the app's URL hash for the page's scenario: "model=...&hardware=...&quant=...&ctx=..."
std::string page_hash(const PageData& d, const std::string& hardware_id = "");
// a whole page (or one section with opts.section) as HTML
std::string render_page_html(const PageData& d, const PageOptions& opts);
// the same as Markdown (tables, the command in a code block, the FAQ as paragraphs)
std::string render_page_md(const PageData& d, const PageOptions& opts);
// the sections `--section` accepts
const std::vector<std::string>& page_sections();
// the site's stylesheet (light/dark by prefers-color-scheme, a print stylesheet); the site writes it to models/site.css
const char* site_css();
// the Content-Security-Policy every page carries (the app's, web/index.html)
extern const char* kCsp;
// <!doctype html> … </head>: CSP, title, description, canonical, Open Graph; css_href "" = the stylesheet inline
std::string html_head(const std::string& title, const std::string& description, const std::string& canonical, const std::string& css_href,
                      const std::string& extra);
// the page's <title> and meta description
std::string page_title(const PageData& d);
std::string page_description(const PageData& d);
// escape text for HTML element content and attribute values
std::string html_escape(const std::string& s);

}  // namespace llmsim::cli
