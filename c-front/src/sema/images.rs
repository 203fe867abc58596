//! OpenCL images and samplers. An image is global memory of 4-word pixels: a parameter
//! `image2d_t img` (any access qualifier) is read as `__global uint *img`, and `sampler_t`
//! as `uint` (its `CLK_*` flags are the predefined macros of `mod.rs`).
//! `write_imagef/i/ui(img, coord, v)` stores the pixel's four words at
//! `(x + (y << 14)) * 4 + k` (3-D and arrays: `x + (y << 10) + (z << 20)`), so two work
//! items writing one pixel race; distinct coordinates past those widths may share an
//! element, which can only add a race, never hide one. `read_imagef/i/ui(img, [sampler,]
//! coord)` gives an arbitrary pixel: a kernel cannot write an image it reads (OpenCL 1.2's
//! images are read-only or write-only), so a read races with nothing, and the host's pixels
//! are any; its operands are still evaluated. `get_image_width/height/depth` are arbitrary.

use crate::text::tokens::CTok;

type Tok = (usize, CTok, usize);

const IMAGE_TYPES: &[&str] = &["image1d_t", "image1d_buffer_t", "image1d_array_t", "image2d_t", "image2d_array_t", "image3d_t"];
const ACCESS: &[&str] = &["read_only", "write_only", "read_write", "__read_write"];

/// The token stream with image and sampler types read as memory and words.
pub fn lower(toks: Vec<Tok>) -> Vec<Tok> {
    let mut out = Vec::with_capacity(toks.len());
    for (l, t, r) in toks {
        match &t {
            CTok::Ident(w) if IMAGE_TYPES.contains(&w.as_str()) => {
                out.extend([(l, CTok::Spec("__global".into()), r), (l, CTok::Spec("uint".into()), r), (l, CTok::P("*"), r)]);
            }
            CTok::Ident(w) if w == "sampler_t" => out.push((l, CTok::Spec("uint".into()), r)),
            CTok::Ident(w) if ACCESS.contains(&w.as_str()) => {}
            _ => out.push((l, t, r)),
        }
    }
    out
}

