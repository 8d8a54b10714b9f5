//! Links the system's libheif (Debian: libheif-dev; the Makefile's DEBIAN_PACKAGES installs it).

fn main() {
    println!("cargo:rustc-link-lib=heif");
}
