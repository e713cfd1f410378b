// A model reference as a user types or pastes it, parsed into the Hub repo, revision, file and quant it names.
//
//   llmsim::HubRef r;
//   std::string err;
//   if (!llmsim::parse_hub_ref("https://huggingface.co/org/name/resolve/main/x-Q4_K_M.gguf", r, err)) show(err);
//   // r.repo == "org/name", r.revision == "main", r.file == "x-Q4_K_M.gguf"
//
// Accepted: `org/name`, `org/name:QUANT`, `[https://](huggingface.co|hf.co)/org/name[/tree/REV]`,
// `.../resolve/REV/path/file.gguf` and `.../blob/REV/path/file.gguf`; a `?query` or `#fragment` is dropped.
// Names are limited to the characters the Hub allows (letters, digits, '-', '_', '.'; at most 96 each), so a
// parsed reference can be put into a request path without escaping.
#pragma once
#include <string>

namespace llmsim {

struct HubRef {
    std::string repo;               // "org/name"
    std::string revision = "main";  // branch, tag or commit
    std::string file;               // a file inside the repo ("" = choose one); always ends in .gguf when set
    std::string quant;              // "Q4_K_M" from `org/name:Q4_K_M` ("" = choose one)
};

// the longest repo part (org or name) the Hub accepts
constexpr size_t kHubMaxNameChars = 96;
// the longest file path inside a repo accepted
constexpr size_t kHubMaxFilePathChars = 512;

// parse `text` (surrounding spaces ignored); false + err saying what is wrong and what a valid id looks like
bool parse_hub_ref(const std::string& text, HubRef& out, std::string& err);

// the canonical text of a reference: "org/name", "org/name:Q4_K_M", or the repo plus "/resolve/REV/FILE"
std::string hub_ref_text(const HubRef& r);

}  // namespace llmsim
