//! A table on disk: a 44-byte header (magic, format version, material name, number of
//! positions, FNV-1a checksum of the values), then one byte per position (`verdict.rs`).
//! Files are named `<MATERIAL>.cht` and memory-mapped: opening one reads only its header, so
//! that a folder of gigabytes opens at once and a probe reads a page; the checksum over every
//! byte is checked by `chuhan egtb verify` and after each build.

use std::io::{self, Read, Write};
use std::ops::Deref;
use std::path::{Path, PathBuf};

use memmap2::Mmap;

use crate::checksum::fnv1a;

use super::material::Material;

const MAGIC: &[u8; 8] = b"CHUHANTB";
const VERSION: u32 = 1;
const NAME_BYTES: usize = 20;
const HEADER_BYTES: usize = 8 + 4 + NAME_BYTES + 8 + 4;

pub fn path(dir: &Path, material: Material) -> PathBuf {
    dir.join(format!("{material}.cht"))
}

/// Writes the table through a temporary file, so that a file of that name is whole.
pub fn write(dir: &Path, material: Material, values: &[u8]) -> io::Result<()> {
    let name = material.to_string();
    let mut header = Vec::with_capacity(HEADER_BYTES);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    let mut padded = [0u8; NAME_BYTES];
    padded[..name.len()].copy_from_slice(name.as_bytes());
    header.extend_from_slice(&padded);
    header.extend_from_slice(&(values.len() as u64).to_le_bytes());
    header.extend_from_slice(&fnv1a(values).to_le_bytes());
    let target = path(dir, material);
    let tmp = target.with_extension("cht.tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(&header)?;
    f.write_all(values)?;
    f.sync_all()?;
    std::fs::rename(tmp, target)
}

/// A table's values: just built, or a mapped file.
pub enum Values {
    Built(Vec<u8>),
    Mapped { map: Mmap, checksum: u32 },
}

impl Deref for Values {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            Values::Built(v) => v,
            Values::Mapped { map, .. } => &map[HEADER_BYTES..],
        }
    }
}

impl Values {
    /// Whether every byte is as written (a table just built always is).
    pub fn verify(&self) -> bool {
        match self {
            Values::Built(_) => true,
            Values::Mapped { checksum, .. } => fnv1a(self) == *checksum,
        }
    }
}

/// Maps `material`'s file in `dir`, its header checked (magic, version, material, size).
pub fn open(dir: &Path, material: Material, positions: u64) -> Result<Values, String> {
    let p = path(dir, material);
    let bad = |why: &str| format!("{}: {why}", p.display());
    let mut f = std::fs::File::open(&p).map_err(|e| bad(&e.to_string()))?;
    let mut header = [0u8; HEADER_BYTES];
    f.read_exact(&mut header).map_err(|_| bad("too short"))?;
    if &header[..8] != MAGIC {
        return Err(bad("not a chuhan endgame table"));
    }
    let version = u32::from_le_bytes(header[8..12].try_into().expect("4 bytes"));
    if version != VERSION {
        return Err(bad(&format!(
            "format version {version}; this chuhan reads {VERSION}"
        )));
    }
    let name = &header[12..12 + NAME_BYTES];
    let name = std::str::from_utf8(name)
        .unwrap_or("")
        .trim_end_matches('\0');
    if name != material.to_string() {
        return Err(bad(&format!("holds {name}")));
    }
    let at = 12 + NAME_BYTES;
    let count = u64::from_le_bytes(header[at..at + 8].try_into().expect("8 bytes"));
    let checksum = u32::from_le_bytes(header[at + 8..at + 12].try_into().expect("4 bytes"));
    if count != positions {
        return Err(bad(&format!("{count} positions, expected {positions}")));
    }
    let length = f.metadata().map_err(|e| bad(&e.to_string()))?.len();
    if length != HEADER_BYTES as u64 + count {
        return Err(bad("cut short or too long"));
    }
    // SAFETY: tables are written whole and renamed into place (`write`), never changed in
    // place, so the mapped bytes do not change under the map.
    let map = unsafe { Mmap::map(&f) }.map_err(|e| bad(&e.to_string()))?;
    Ok(Values::Mapped { map, checksum })
}
