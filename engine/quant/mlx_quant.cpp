// The MLX quantization table and per-tensor sizes (mlx_quant.h).
#include "quant/mlx_quant.h"

#include <cstdlib>

#include "core/text.h"

namespace llmsim {

namespace {

constexpr unsigned bit(int k) { return 1u << (unsigned)k; }
constexpr unsigned kG16 = 1u, kG32 = 2u, kG64 = 4u, kG128 = 8u;

// mlx.core.quantize "Quantization modes" table (mlx docs, python/_autosummary/mlx.core.quantize.html):
//   affine: group 32, 64*, 128; bits 2, 3, 4*, 5, 6, 8; scale "same as input" (fp16/bf16); bias yes
//   mxfp4:  group 32*; bits 4*; scale e8m0 (1 byte); no bias
//   nvfp4:  group 16*; bits 4*; scale e4m3 (1 byte); no bias
//   mxfp8:  group 32*; bits 8*; scale e8m0 (1 byte); no bias
// defaults (*) as mlx_lm/utils.py quantize_model defaults_for_mode: affine (64, 4), mxfp4 (32, 4), nvfp4 (16, 4),
// mxfp8 (32, 8). nvfp4 also keeps one fp32 global scale per tensor: 4 bytes a matrix, left out.
constexpr MlxModeInfo kMlxModes[] = {
    {MlxQuantMode::None, "none", 16, 0, bit(16), 0, 0, 0},
    {MlxQuantMode::Affine, "affine", 4, 64, bit(2) | bit(3) | bit(4) | bit(5) | bit(6) | bit(8), kG32 | kG64 | kG128, 2, 2},
    {MlxQuantMode::Mxfp4, "mxfp4", 4, 32, bit(4), kG32, 1, 0},
    {MlxQuantMode::Nvfp4, "nvfp4", 4, 16, bit(4), kG16, 1, 0},
    {MlxQuantMode::Mxfp8, "mxfp8", 8, 32, bit(8), kG32, 1, 0},
};
static_assert(sizeof(kMlxModes) / sizeof(kMlxModes[0]) == (size_t)MlxQuantMode::Count, "one kMlxModes row per mode");
constexpr bool mlx_rows_in_order() {
    for (int i = 0; i < (int)MlxQuantMode::Count; ++i)
        if ((int)kMlxModes[i].mode != i) return false;
    return true;
}
static_assert(mlx_rows_in_order(), "kMlxModes rows in MlxQuantMode order");

// bytes of one element left unquantized: mlx_lm.convert saves them in the config's torch_dtype (bf16/fp16)
constexpr uint64_t kUnquantizedElementBytes = 2;

unsigned group_bit(int g) { return g == 16 ? kG16 : g == 32 ? kG32 : g == 64 ? kG64 : g == 128 ? kG128 : 0u; }

bool supported(const MlxQuant& q) {
    const MlxModeInfo& r = mlx_mode_info(q.mode);
    if (q.mode == MlxQuantMode::None) return true;
    return q.bits > 0 && q.bits < 32 && (r.bits_allowed & bit(q.bits)) && (r.groups_allowed & group_bit(q.group_size));
}

// "4bit" -> 4; -1 when the text is not <digits>bit
int parse_bits(const std::string& s) {
    if (s.size() < 4 || s.compare(s.size() - 3, 3, "bit") != 0) return -1;
    const std::string d = s.substr(0, s.size() - 3);
    if (d.empty() || d.size() > 2 || d.find_first_not_of("0123456789") != std::string::npos) return -1;
    return std::atoi(d.c_str());
}

// "g64" -> 64; -1 otherwise
int parse_group(const std::string& s) {
    if (s.size() < 2 || s.size() > 4 || s[0] != 'g' || s.find_first_not_of("0123456789", 1) != std::string::npos) return -1;
    return std::atoi(s.c_str() + 1);
}

// the quantization a lower-case name spells, supported or not; nullopt when it is not of the "mlx-" forms
std::optional<MlxQuant> spell(const std::string& n) {
    if (n.rfind("mlx-", 0) != 0) return std::nullopt;
    const std::vector<std::string> p = split_on(n.substr(4), '-');
    if (p.empty()) return std::nullopt;
    if (p.size() == 1 && (p[0] == "bf16" || p[0] == "fp16" || p[0] == "f16")) return MlxQuant{MlxQuantMode::None, 16, 0};
    for (int m = (int)MlxQuantMode::Mxfp4; m < (int)MlxQuantMode::Count; ++m) {
        const MlxModeInfo& r = kMlxModes[m];
        if (p.size() == 1 && p[0] == r.name) return MlxQuant{r.mode, r.default_bits, r.default_group_size};
    }
    const int bits = parse_bits(p[0]);
    if (bits < 0 || p.size() > 2) return std::nullopt;
    const int group = p.size() == 2 ? parse_group(p[1]) : kMlxModes[(int)MlxQuantMode::Affine].default_group_size;
    if (group < 0) return std::nullopt;
    return MlxQuant{MlxQuantMode::Affine, bits, group};
}

// mlx-lm quantizes this tensor (a module with to_quantized whose last dimension divides by the group size)
bool quantized_by_mlx_lm(const TensorDesc& t, const MlxQuant& q) {
    if (q.mode == MlxQuantMode::None) return false;
    const bool matrix = (t.kind == TensorKind::Weight || t.kind == TensorKind::Router) && t.n_dims >= 2;
    if (!matrix || t.name.find("conv1d") != std::string::npos) return false;   // nn.Conv1d has no to_quantized
    const int g = t.kind == TensorKind::Router && q.mode == MlxQuantMode::Affine ? 64 : q.group_size;
    return g > 0 && t.ne[0] % g == 0;
}

}  // namespace

const MlxModeInfo& mlx_mode_info(MlxQuantMode m) { return kMlxModes[(int)m]; }

double mlx_bits_per_weight(const MlxQuant& q) {
    if (q.mode == MlxQuantMode::None) return 8.0 * (double)kUnquantizedElementBytes;
    const MlxModeInfo& r = mlx_mode_info(q.mode);
    return (double)q.bits + 8.0 * (r.scale_bytes + r.bias_bytes) / (double)q.group_size;
}

std::optional<MlxQuant> parse_mlx_quant(const std::string& name) {
    const std::optional<MlxQuant> q = spell(lower_ascii(trim_space(name)));
    if (!q || !supported(*q)) return std::nullopt;
    return q;
}

std::string mlx_quant_name(const MlxQuant& q) {
    if (q.mode == MlxQuantMode::None) return "mlx-bf16";
    if (q.mode != MlxQuantMode::Affine) return std::string("mlx-") + mlx_mode_info(q.mode).name;
    return "mlx-" + std::to_string(q.bits) + "bit-g" + std::to_string(q.group_size);
}

bool looks_like_mlx_quant(const std::string& name) {
    // lower_ascii(trim_space(name)) starts with "mlx-", without building either string (evaluate() asks on every
    // call): "mlx-" has no white space, so the trailing trim never reaches it
    const size_t a = name.find_first_not_of(" \t\n\v\f\r");
    return a != std::string::npos && name.size() - a >= 4 && equals_ci(std::string_view(name).substr(a, 4), "mlx-");
}

std::string mlx_quant_error(const std::string& name) {
    const std::optional<MlxQuant> q = spell(lower_ascii(trim_space(name)));
    const std::string forms = "mlx-<bits>bit[-g<group>] (affine: bits 2, 3, 4, 5, 6, 8; group 32, 64, 128; default "
                              "g64), mlx-mxfp4, mlx-nvfp4, mlx-mxfp8 or mlx-bf16";
    if (!q) return "'" + name + "' is no MLX quantization: use " + forms;
    return "MLX does not support '" + name + "' (" + std::to_string(q->bits) + " bits, group " +
           std::to_string(q->group_size) + "): use " + forms;
}

const std::vector<std::string>& mlx_quant_picker_names() {
    static const std::vector<std::string> names = {"mlx-8bit-g64", "mlx-6bit-g64", "mlx-4bit-g32", "mlx-4bit-g64",
                                                   "mlx-mxfp4",    "mlx-4bit-g128", "mlx-3bit-g64", "mlx-bf16"};
    return names;
}

std::string mlx_counterpart_file_type(const MlxQuant& q) {
    if (q.mode == MlxQuantMode::None) return "F16";
    if (q.mode == MlxQuantMode::Mxfp4) return "MXFP4_MOE";
    static const char* const by_bits[] = {"Q2_K", "Q2_K", "Q2_K", "Q3_K_M", "Q4_K_M", "Q5_K_M", "Q6_K", "Q8_0", "Q8_0"};
    return q.bits >= 0 && q.bits <= 8 ? by_bits[q.bits] : "Q8_0";
}

uint64_t mlx_tensor_bytes(const TensorDesc& t, const MlxQuant& q) {
    const uint64_t n = t.n_elements();
    if (!quantized_by_mlx_lm(t, q)) return n * kUnquantizedElementBytes;
    MlxQuant use = q;
    if (t.kind == TensorKind::Router && q.mode == MlxQuantMode::Affine) use = MlxQuant{MlxQuantMode::Affine, 8, 64};
    const MlxModeInfo& r = mlx_mode_info(use.mode);
    const uint64_t groups = n / (uint64_t)use.group_size;
    // packed codes: n x bits / 8 (rows are multiples of 32 elements, so the uint32 packing has no padding)
    return n * (uint64_t)use.bits / 8 + (uint64_t)((double)groups * (r.scale_bytes + r.bias_bytes));
}

bool compute_mlx_weight_size(const Model& m, const MlxQuant& q, MlxWeightSize& out, std::string& err) {
    out = MlxWeightSize{};
    out.quant = q;
    if (!supported(q)) {
        err = mlx_quant_error(mlx_quant_name(q));
        return false;
    }
    if (!enumerate_tensors(m, out.tensors, err)) return false;
    out.bytes.reserve(out.tensors.size());
    for (const TensorDesc& t : out.tensors) {
        const uint64_t b = mlx_tensor_bytes(t, q);
        out.bytes.push_back(b);
        out.params += t.n_elements();
        out.total_bytes += b;
        (quantized_by_mlx_lm(t, q) ? out.quantized_bytes : out.unquantized_bytes) += b;
    }
    out.bits_per_weight = out.params ? 8.0 * (double)out.total_bytes / (double)out.params : 0.0;
    return true;
}

}  // namespace llmsim
