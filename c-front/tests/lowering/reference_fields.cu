// A struct field that is a reference is refused (kpl's structs hold values).
struct holder { int &r; };
__global__ void k(holder *hs) {
}
