#include <cerrno>
#include <cstdio>
#include <cstring>

#include "commands.h"

#include <cstdlib>
#include <fstream>
#include <sstream>


namespace llmsim::cli {

const std::string* Args::get(const std::string& key) const {
    for (const auto& kv : options)
        if (kv.first == key) return &kv.second;
    return nullptr;
}

Args parse_args(int argc, char** argv, const std::vector<std::string>& flags) {
    Args a;
    for (int i = 1; i < argc; ++i) {
        std::string s = argv[i];
        if (s.size() > 2 && s[0] == '-' && s[1] == '-') {
            std::string key = s.substr(2), value;
            size_t eq = key.find('=');
            if (eq != std::string::npos) { value = key.substr(eq + 1); key = key.substr(0, eq); }
            else {
                bool is_flag = false;
                for (const auto& f : flags) is_flag |= (f == key);
                if (!is_flag && i + 1 < argc) value = argv[++i];
            }
            a.options.emplace_back(key, value);
        } else {
            a.positional.push_back(s);
        }
    }
    return a;
}

bool option_number(const Args& a, const char* cmd, const char* key, double lo, double hi, double& out, std::string& err) {
    const std::string* v = a.get(key);
    if (!v) return true;
    char* end = nullptr;
    double d = strtod(v->c_str(), &end);   // main() runs in the "C" locale: '.' is the decimal point everywhere
    if (v->empty() || *end || !(d >= lo && d <= hi)) {
        char range[64];
        snprintf(range, sizeof range, "%g to %g", lo, hi);
        err = std::string(cmd) + ": --" + key + " wants a number from " + range + " (got '" + *v + "')";
        return false;
    }
    out = d;
    return true;
}

std::string first_unknown_option(const Args& a, std::initializer_list<const char*> known) {
    for (const auto& kv : a.options) {
        bool ok = false;
        for (const char* k : known) ok |= kv.first == k;
        if (!ok) return kv.first;
    }
    return "";
}

int fail(const std::string& message) {
    fprintf(stderr, "llmsim-cli: %s\n", message.c_str());
    return 2;
}

std::string unknown_model_message(const Catalog& cat, const std::string& id) {
    std::string err;
    if (const auto r = resolve_model_name(cat, id, err))
        return "'" + id + "' names quant " + r->file_type + " (" + r->via + "); give --model " + r->model->id + " --quant " +
               r->file_type;
    return with_model_hint(err, "llmsim-cli catalog --models lists them");
}

bool load_catalog(Catalog& cat) {
    std::string err;
    if (!load_embedded_catalog(cat, err)) {
        fprintf(stderr, "llmsim-cli: %s\n", err.c_str());
        return false;
    }
    return true;
}

bool read_text_file(const std::string& path, size_t max_bytes, std::string& text, std::string& err) {
    std::ifstream f(path, std::ios::binary);
    if (!f) { err = "cannot read '" + path + "'"; return false; }
    std::string buf(max_bytes + 1, '\0');
    f.read(&buf[0], (std::streamsize)buf.size());
    if (f.bad()) { err = "cannot read '" + path + "' (is it a directory?)"; return false; }
    buf.resize((size_t)f.gcount());
    if (buf.size() > max_bytes) { err = "'" + path + "' is larger than " + std::to_string(max_bytes >> 10) + " KiB"; return false; }
    text = std::move(buf);
    return true;
}

bool read_device_profile(const Args& a, const char* cmd, DeviceProfile& out, bool& given, std::string& err) {
    const std::string* path = a.get("device-profile");
    given = path != nullptr;
    if (!path) return true;
    std::string text;
    if (!read_text_file(*path, 1u << 20, text, err) || !parse_device_profile(text, out, err)) {
        err = std::string(cmd) + ": --device-profile: " + err;
        return false;
    }
    return true;
}

bool read_speed_params(const Args& a, const char* cmd, SpeedParams& out, std::string& err) {
    const std::string* path = a.get("params");
    if (!path) return true;
    std::string text;
    if (!read_text_file(*path, 16u << 20, text, err)) { err = std::string(cmd) + ": " + err; return false; }
    if (!parse_speed_params(text, out, err)) { err = std::string(cmd) + ": " + *path + ": " + err; return false; }
    return true;
}

bool read_gguf_header_file(const std::string& path, GgufInfo& info, std::string& err) {
    FILE* f = fopen(path.c_str(), "rb");
    if (!f) { err = "cannot open " + path + ": " + std::strerror(errno); return false; }
    GgufReadFn rd = [f](uint64_t off, void* dst, size_t n) -> size_t {
        if (off > (uint64_t)INT64_MAX || fseeko(f, (off_t)off, SEEK_SET) != 0) return 0;
        return fread(dst, 1, n, f);
    };
    const bool ok = read_gguf(rd, info, err);
    fclose(f);
    if (!ok) err = path + ": " + err;
    return ok;
}

}  // namespace llmsim::cli
