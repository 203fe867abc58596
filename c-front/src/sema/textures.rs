//! CUDA's texture references, on the token stream: `texture<T, dim, mode> t;` is read-only
//! global memory the host fills, so a `__device__ const T t[];` of unknown size;
//! `tex1Dfetch(t, i)` reads its element `t[i]`; a filtered read (`tex1D`, `tex2D`,
//! `tex3D`, their layered and cube-map forms, float coordinates) gives an arbitrary `T`,
//! as a call of a bodiless function `__texture_read_t` does.
//!
//! Texture objects (`cudaTextureObject_t`, the driver API's `CUtexObject`) are handles the
//! host makes, `unsigned long long` as CUDA defines them; a read through one
//! (`tex2D<float4>(obj, x, y)`, `tex1Dfetch<T>(obj, i)`, the `Lod`, `Grad`, `gather`,
//! layered and cube-map forms) gives an arbitrary `T`, its arguments evaluated: a call of a
//! bodiless `__device__ T __kpl_texture_N();` declared just before the function that reads.
//! Which memory an object reads is not known, but it is read-only, so it races with nothing.

use crate::sema::coop::{ident, is_p};
use crate::text::tokens::CTok;

type Tok = (usize, CTok, usize);

/// The reads through texture objects: `NAME<T>(object, ...)`.
const OBJECT_READS: &[&str] = &[
    "tex1D", "tex2D", "tex3D", "tex1Dfetch", "tex1DLayered", "tex2DLayered", "texCubemap", "texCubemapLayered", "tex1DLod",
    "tex2DLod", "tex3DLod", "tex1DLayeredLod", "tex2DLayeredLod", "texCubemapLod", "texCubemapLayeredLod", "tex1DGrad", "tex2DGrad",
    "tex3DGrad", "tex1DLayeredGrad", "tex2DLayeredGrad", "texCubemapGrad", "texCubemapLayeredGrad", "tex2Dgather",
];

const FILTERED: &[&str] = &["tex1D", "tex2D", "tex3D", "tex1DLayered", "tex2DLayered", "texCubemap", "texCubemapLayered"];

/// The index of the `close` that matches the `open` at `at` (`None` past a `;` when the
/// brackets are angles, which a statement does not hold).
pub(crate) fn closing(toks: &[Tok], at: usize, open: &str, close: &str) -> Option<usize> {
    let mut depth = 0;
    for (j, t) in toks.iter().enumerate().skip(at) {
        if is_p(Some(t), open) {
            depth += 1;
        } else if is_p(Some(t), close) {
            depth -= 1;
            if depth == 0 {
                return Some(j);
            }
        } else if open == "<" && is_p(Some(t), ";") {
            return None;
        }
    }
    None
}

/// The token stream with texture references read as memory (see the module doc).
pub fn lower(toks: Vec<Tok>) -> Vec<Tok> {
    if !toks.iter().any(|t| matches!(&t.1, CTok::Ident(w) if w == "texture")) {
        return toks;
    }
    let mut textures: Vec<String> = Vec::new();
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if is_p(Some(t), "{") {
            depth += 1;
        } else if is_p(Some(t), "}") {
            depth = depth.saturating_sub(1);
        }
        // `texture<T, ...> name;` at file scope.
        if depth == 0 && ident(Some(t)) == Some("texture") && is_p(toks.get(i + 1), "<") {
            let decl = closing(&toks, i + 1, "<", ">").and_then(|close| {
                let name = ident(toks.get(close + 1))?.to_string();
                is_p(toks.get(close + 2), ";").then_some(())?;
                let elem_end = (i + 2..close).find(|&j| is_p(toks.get(j), ",")).unwrap_or(close);
                Some((name, toks[i + 2..elem_end].to_vec(), close + 3))
            });
            if let Some((name, elem, next)) = decl {
                let (l, r) = (t.0, t.2);
                let at = |c: CTok| (l, c, r);
                // `__device__ const T name[];` and `__device__ T __texture_read_name();`.
                out.extend([at(CTok::Spec("__device__".into())), at(CTok::Spec("const".into()))]);
                out.extend(elem.iter().cloned());
                out.extend([at(CTok::Ident(name.clone())), at(CTok::P("[")), at(CTok::P("]")), at(CTok::P(";"))]);
                out.push(at(CTok::Spec("__device__".into())));
                out.extend(elem.iter().cloned());
                out.extend([at(CTok::Ident(format!("__texture_read_{name}"))), at(CTok::P("(")), at(CTok::P(")")), at(CTok::P(";"))]);
                textures.push(name);
                i = next;
                continue;
            }
        }
        // `tex1Dfetch(t, i)` -> `t[i]`; `tex2D(t, x, y)` -> `__texture_read_t(x, y)`.
        if let Some(f) = ident(Some(t)) {
            let texture = ident(toks.get(i + 2)).filter(|n| textures.iter().any(|x| x == n));
            if let (Some(tex), true, true) = (texture, is_p(toks.get(i + 1), "("), is_p(toks.get(i + 3), ",")) {
                if f == "tex1Dfetch" {
                    if let Some(close) = closing(&toks, i + 1, "(", ")") {
                        let (l, r) = (t.0, t.2);
                        out.push((l, CTok::Ident(tex.to_string()), r));
                        out.push((toks[i + 3].0, CTok::P("["), toks[i + 3].2));
                        out.extend(toks[i + 4..close].iter().cloned());
                        out.push((toks[close].0, CTok::P("]"), toks[close].2));
                        i = close + 1;
                        continue;
                    }
                } else if FILTERED.contains(&f) {
                    let (l, r) = (t.0, t.2);
                    out.push((l, CTok::Ident(format!("__texture_read_{tex}")), r));
                    out.push(toks[i + 1].clone());
                    i += 4;
                    continue;
                }
            }
        }
        out.push(t.clone());
        i += 1;
    }
    out
}

/// The token stream with texture objects as handles and their reads as calls of bodiless
/// functions (see the module doc); after templates are instantiated, so `T` is a type.
pub fn objects(toks: Vec<Tok>) -> Vec<Tok> {
    let handle = |t: &Tok| matches!(&t.1, CTok::Ident(w) if w == "cudaTextureObject_t" || w == "CUtexObject");
    let read = |toks: &[Tok], i: usize| ident(toks.get(i)).is_some_and(|f| OBJECT_READS.contains(&f)) && is_p(toks.get(i + 1), "<");
    if !(0..toks.len()).any(|i| handle(&toks[i]) || read(&toks, i)) {
        return toks;
    }
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    // Where the current top-level item starts in `out`: declarations go there.
    let (mut item, mut depth, mut count) = (0usize, 0usize, 0usize);
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if handle(t) {
            let (l, r) = (t.0, t.2);
            out.extend(["unsigned", "long", "long"].map(|w| (l, CTok::Spec(w.to_string()), r)));
            i += 1;
            continue;
        }
        if read(&toks, i) {
            if let Some(close) = closing(&toks, i + 1, "<", ">").filter(|&c| is_p(toks.get(c + 1), "(")) {
                let (l, r) = (t.0, t.2);
                let name = format!("__kpl_texture_{count}");
                count += 1;
                let mut decl = vec![(l, CTok::Spec("__device__".into()), r)];
                decl.extend(toks[i + 2..close].iter().cloned());
                decl.extend([(l, CTok::Ident(name.clone()), r), (l, CTok::P("("), r), (l, CTok::P(")"), r), (l, CTok::P(";"), r)]);
                let n = decl.len();
                out.splice(item..item, decl);
                item += n;
                out.push((l, CTok::Ident(name), r));
                i = close + 1;
                continue;
            }
        }
        if is_p(Some(t), "{") {
            depth += 1;
        } else if is_p(Some(t), "}") {
            depth = depth.saturating_sub(1);
        }
        out.push(t.clone());
        if depth == 0 && (is_p(Some(t), ";") || is_p(Some(t), "}")) {
            item = out.len();
        }
        i += 1;
    }
    out
}
