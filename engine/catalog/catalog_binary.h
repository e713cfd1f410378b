// The catalog in a compact binary form, for the web page: reading it is a walk over the structs' fields with no JSON
// text parse and no per-field checks (the writer ran parse_catalog on the JSON, which stays the one source of truth).
// The page's start-up parsed ~320 KB of JSON (docs/validation/2026-12-07-page-ready2.md); the web build writes this
// form at build time with `llmsim-cli catalog --binary OUT --from DIR` from the page's projection of the JSON.
//
//   std::string err;
//   llmsim::Catalog cat;
//   if (!llmsim::parse_catalog(models, hardware, quants, cat, err)) ...;
//   const std::string bin = llmsim::catalog_to_binary(cat);
//   llmsim::Catalog back;
//   if (!llmsim::catalog_from_binary(bin, back, err)) fprintf(stderr, "%s\n", err.c_str());
//
// Layout (core/binary_fields.h, shared with speed/speed_binary.h): an 8-byte magic "LLMCATB1", the field list's
// fingerprint (u64: a changed field list refuses old files), the payload's length (u64) and its FNV-1a 64 hash (u64),
// then the payload: integers as zigzag LEB128, doubles as a short decimal or their 8 IEEE bytes, bools as one byte,
// strings and lists as a length then the items.
#pragma once
#include <string>
#include <string_view>

#include "catalog/catalog.h"

namespace llmsim {

// the catalog's fields as bytes (combinations and the rig cache are rebuilt by the reader, not written)
std::string catalog_to_binary(const Catalog& cat);
// read what catalog_to_binary wrote; false + err ("catalog.bin: ...": truncated, corrupt, written by another field
// list) and `out` untouched on any other input
bool catalog_from_binary(std::string_view bytes, Catalog& out, std::string& err);
// every field of the catalog, one "path = value" line each (doubles to 17 digits): tests compare two catalogs with it
std::string catalog_fields_text(const Catalog& cat);

}  // namespace llmsim
