//! A minimal ZIP writer for the runCommand `context`: files are stored (method 0, no
//! compression), so the only thing to compute is each file's CRC-32. Pure and deterministic:
//! every entry carries the DOS date 1980-01-01 00:00, so the same files always give the same
//! bytes (and the same base64 in a printed plan).
//!
//! The archive has no ZIP64 records: it is meant for a few small attachments (a Helm values file),
//! far below the 4 GiB and 65,535-entry limits of the classic format.

/// Local file header signature (`PK\x03\x04`).
const LOCAL_SIG: u32 = 0x0403_4b50;
/// Central directory file header signature (`PK\x01\x02`).
const CENTRAL_SIG: u32 = 0x0201_4b50;
/// End of central directory record signature (`PK\x05\x06`).
const EOCD_SIG: u32 = 0x0605_4b50;
/// Version needed to extract: 1.0 (stored entries, no folders, no encryption).
const VERSION_NEEDED: u16 = 10;
/// Version made by: Unix (3) in the high byte, spec 2.0 in the low byte, so that the external
/// attributes below are read as Unix permissions.
const VERSION_MADE_BY: u16 = (3 << 8) | 20;
/// General purpose flags: bit 11, file names are UTF-8.
const FLAG_UTF8: u16 = 1 << 11;
/// Compression method 0: stored.
const METHOD_STORED: u16 = 0;
/// DOS time 00:00:00.
const DOS_TIME: u16 = 0;
/// DOS date 1980-01-01: (year - 1980) << 9 | month << 5 | day.
const DOS_DATE: u16 = (1 << 5) | 1;
/// External attributes: a regular file, mode 0644, in the high 16 bits.
const EXTERNAL_ATTRS: u32 = 0o100_644 << 16;

/// The CRC-32 (IEEE 802.3, reflected polynomial `0xEDB88320`) lookup table, built at compile time.
const CRC_TABLE: [u32; 256] = crc_table();

const fn crc_table() -> [u32; 256] {
    let mut table = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut bit = 0;
        while bit < 8 {
            c = if c & 1 == 1 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
            bit += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
}

/// The CRC-32 of `data` as ZIP (and gzip, PNG, Ethernet) uses it.
pub fn crc32(data: &[u8]) -> u32 {
    !data.iter().fold(!0u32, |c, &b| CRC_TABLE[usize::from((c as u8) ^ b)] ^ (c >> 8))
}

/// A ZIP archive holding `files` (name, contents) in the given order, stored uncompressed.
///
/// Names are written as given (UTF-8, flag bit 11 set); use `/` as the separator and no leading
/// `/` or `..`. Duplicate names are not checked. Sizes, offsets and counts saturate at the classic
/// format's limits (4 GiB, 65,535 entries, 65,535-byte names), which no runCommand attachment
/// comes near; beyond them the archive would be invalid.
pub fn stored(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut out =
        Vec::with_capacity(files.iter().map(|(name, data)| 30 + 46 + 2 * name.len() + data.len()).sum::<usize>() + 22);
    let mut central = Vec::new();

    for (name, data) in files {
        let offset = len32(out.len());
        let crc = crc32(data);
        let size = len32(data.len());
        let name_len = len16(name.len());

        // Local file header.
        put32(&mut out, LOCAL_SIG);
        put16(&mut out, VERSION_NEEDED);
        put16(&mut out, FLAG_UTF8);
        put16(&mut out, METHOD_STORED);
        put16(&mut out, DOS_TIME);
        put16(&mut out, DOS_DATE);
        put32(&mut out, crc);
        put32(&mut out, size); // compressed size
        put32(&mut out, size); // uncompressed size
        put16(&mut out, name_len);
        put16(&mut out, 0); // extra field length
        out.extend_from_slice(name.as_bytes());
        out.extend_from_slice(data);

        // Central directory header.
        put32(&mut central, CENTRAL_SIG);
        put16(&mut central, VERSION_MADE_BY);
        put16(&mut central, VERSION_NEEDED);
        put16(&mut central, FLAG_UTF8);
        put16(&mut central, METHOD_STORED);
        put16(&mut central, DOS_TIME);
        put16(&mut central, DOS_DATE);
        put32(&mut central, crc);
        put32(&mut central, size);
        put32(&mut central, size);
        put16(&mut central, name_len);
        put16(&mut central, 0); // extra field length
        put16(&mut central, 0); // file comment length
        put16(&mut central, 0); // disk number start
        put16(&mut central, 0); // internal attributes
        put32(&mut central, EXTERNAL_ATTRS);
        put32(&mut central, offset);
        central.extend_from_slice(name.as_bytes());
    }

    let central_offset = len32(out.len());
    let central_size = len32(central.len());
    let entries = len16(files.len());
    out.extend_from_slice(&central);

    // End of central directory record.
    put32(&mut out, EOCD_SIG);
    put16(&mut out, 0); // number of this disk
    put16(&mut out, 0); // disk where the central directory starts
    put16(&mut out, entries); // entries on this disk
    put16(&mut out, entries); // entries in total
    put32(&mut out, central_size);
    put32(&mut out, central_offset);
    put16(&mut out, 0); // comment length
    out
}

fn put16(out: &mut Vec<u8>, v: u16) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn put32(out: &mut Vec<u8>, v: u32) {
    out.extend_from_slice(&v.to_le_bytes());
}

fn len16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

fn len32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn u16_at(b: &[u8], at: usize) -> u16 {
        u16::from_le_bytes([b[at], b[at + 1]])
    }

    fn u32_at(b: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
    }

    /// Parse an archive the way a reader does: from the end record, through the central
    /// directory, to each local header. Checks every field this writer sets.
    fn read_back(zip: &[u8]) -> Vec<(String, Vec<u8>)> {
        let eocd = zip.len() - 22;
        assert_eq!(u32_at(zip, eocd), EOCD_SIG, "end record signature");
        assert_eq!(u16_at(zip, eocd + 4), 0);
        assert_eq!(u16_at(zip, eocd + 6), 0);
        let entries = usize::from(u16_at(zip, eocd + 10));
        assert_eq!(u16_at(zip, eocd + 8), u16_at(zip, eocd + 10), "entries on disk == total");
        let cd_size = u32_at(zip, eocd + 12) as usize;
        let cd_offset = u32_at(zip, eocd + 16) as usize;
        assert_eq!(u16_at(zip, eocd + 20), 0, "no comment");
        assert_eq!(cd_offset + cd_size, eocd, "central directory ends where the end record starts");

        let mut files = Vec::new();
        let mut at = cd_offset;
        let mut next_local = 0;
        for _ in 0..entries {
            assert_eq!(u32_at(zip, at), CENTRAL_SIG, "central header signature");
            assert_eq!(u16_at(zip, at + 4), VERSION_MADE_BY);
            assert_eq!(u16_at(zip, at + 6), VERSION_NEEDED);
            assert_eq!(u16_at(zip, at + 8), FLAG_UTF8);
            assert_eq!(u16_at(zip, at + 10), METHOD_STORED);
            assert_eq!(u16_at(zip, at + 12), 0, "time 00:00");
            assert_eq!(u16_at(zip, at + 14), 0x0021, "date 1980-01-01");
            let crc = u32_at(zip, at + 16);
            let csize = u32_at(zip, at + 20) as usize;
            let usize_ = u32_at(zip, at + 24) as usize;
            assert_eq!(csize, usize_, "stored: compressed size == size");
            let name_len = usize::from(u16_at(zip, at + 28));
            assert_eq!(u16_at(zip, at + 30), 0);
            assert_eq!(u16_at(zip, at + 32), 0);
            assert_eq!(u32_at(zip, at + 38), 0o100_644 << 16);
            let local = u32_at(zip, at + 42) as usize;
            assert_eq!(local, next_local, "entries are contiguous");
            let name = std::str::from_utf8(&zip[at + 46..at + 46 + name_len]).expect("utf-8 name").to_owned();
            at += 46 + name_len;

            assert_eq!(u32_at(zip, local), LOCAL_SIG, "local header signature");
            assert_eq!(u16_at(zip, local + 4), VERSION_NEEDED);
            assert_eq!(u16_at(zip, local + 6), FLAG_UTF8);
            assert_eq!(u16_at(zip, local + 8), METHOD_STORED);
            assert_eq!(u16_at(zip, local + 10), 0);
            assert_eq!(u16_at(zip, local + 12), 0x0021);
            assert_eq!(u32_at(zip, local + 14), crc);
            assert_eq!(u32_at(zip, local + 18) as usize, csize);
            assert_eq!(u32_at(zip, local + 22) as usize, usize_);
            assert_eq!(usize::from(u16_at(zip, local + 26)), name_len);
            let extra = usize::from(u16_at(zip, local + 28));
            assert_eq!(&zip[local + 30..local + 30 + name_len], name.as_bytes());
            let start = local + 30 + name_len + extra;
            let data = zip[start..start + csize].to_vec();
            assert_eq!(crc32(&data), crc, "crc of {name}");
            next_local = start + csize;
            files.push((name, data));
        }
        assert_eq!(at, eocd, "central directory fully consumed");
        assert_eq!(next_local, cd_offset, "local section ends where the central directory starts");
        files
    }

    #[test]
    fn crc32_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        assert_eq!(crc32(b"The quick brown fox jumps over the lazy dog"), 0x414F_A339);
    }

    #[test]
    fn empty_archive_is_just_the_end_record() {
        let zip = stored(&[]);
        assert_eq!(zip, [0x50, 0x4b, 0x05, 0x06, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        assert!(read_back(&zip).is_empty());
    }

    #[test]
    fn archive_reads_back() {
        let values = b"driver:\n  enabled: false\n".as_slice();
        let files: [(&str, &[u8]); 4] = [
            ("values.yaml", values),
            ("empty.txt", b""),
            ("dir/grüße.txt", "héllo".as_bytes()),
            ("bin", &[0, 1, 2, 255]),
        ];
        let zip = stored(&files);
        assert_eq!(&zip[..4], b"PK\x03\x04");
        let back = read_back(&zip);
        assert_eq!(back.len(), files.len());
        for ((name, data), (rname, rdata)) in files.iter().zip(&back) {
            assert_eq!(name, rname);
            assert_eq!(*data, rdata.as_slice());
        }
        let expected_len: usize = files.iter().map(|(n, d)| 30 + 46 + 2 * n.len() + d.len()).sum::<usize>() + 22;
        assert_eq!(zip.len(), expected_len);
    }

    /// The archive depends on the files only: the local header carries the CRC-32 that zlib
    /// computes for the same bytes (`zlib.crc32(b"a: 1\n")` = 0xe3231969; the check value of
    /// "123456789" is 0xcbf43926, CRC-32/ISO-HDLC), and the fixed DOS time and date.
    #[test]
    fn header_holds_zlibs_crc_and_no_clock() {
        let zip = stored(&[("values.yaml", b"a: 1\n")]);
        assert_eq!(u32_at(&zip, 0), 0x0403_4b50, "local file header signature");
        assert_eq!(u32_at(&zip, 14), 0xe323_1969, "CRC-32 of the data");
        assert_eq!((u16_at(&zip, 10), u16_at(&zip, 12)), (DOS_TIME, DOS_DATE));
        let check = stored(&[("c", b"123456789")]);
        assert_eq!(u32_at(&check, 14), 0xcbf4_3926, "the CRC-32 check value");
    }

    #[test]
    fn python_zipfile_accepts_the_archive() {
        let values =
            "daemonsets:\n  tolerations:\n  - key: sku\n    operator: Equal\n    value: gpu\n    effect: NoSchedule\n";
        let zip = stored(&[("values.yaml", values.as_bytes()), ("notes/ünï.txt", b"x")]);
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
        let path = std::env::temp_dir().join(format!("aksgpu-zip-test-{}-{nanos}.zip", std::process::id()));
        std::fs::write(&path, &zip).expect("write temp zip");
        let run = std::process::Command::new("python3")
            .arg("-c")
            .arg("import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(z.read('values.yaml').decode())")
            .arg(&path)
            .output();
        let names = std::process::Command::new("python3")
            .arg("-c")
            .arg("import zipfile,sys; print('|'.join(zipfile.ZipFile(sys.argv[1]).namelist()))")
            .arg(&path)
            .output();
        let _ = std::fs::remove_file(&path);
        let (Ok(run), Ok(names)) = (run, names) else {
            // No python3 here: the structural test above still covers the format.
            return;
        };
        assert!(run.status.success(), "python3 rejected the archive: {}", String::from_utf8_lossy(&run.stderr));
        assert_eq!(String::from_utf8_lossy(&run.stdout), format!("{values}\n"));
        assert!(names.status.success(), "{}", String::from_utf8_lossy(&names.stderr));
        assert_eq!(String::from_utf8_lossy(&names.stdout), "values.yaml|notes/ünï.txt\n");
    }
}
