//! Test certificates: a certificate authority of the test's own and the server certificates it
//! signs, written as PEM files, as a deployment's CA and cert-manager would provide them.

use std::path::{Path, PathBuf};

use rcgen::{BasicConstraints, CertificateParams, CertifiedIssuer, DnType, IsCa, KeyPair};

/// A CA whose certificate is in `ca.pem` under its directory.
pub struct TestCa {
    issuer: CertifiedIssuer<'static, KeyPair>,
    dir: PathBuf,
    name: String,
}

fn fail(what: &str, e: impl std::fmt::Display) -> ! {
    panic!("test certificates: {what}: {e}")
}

impl TestCa {
    /// A new CA named `name`, writing its files under `dir` (created if missing).
    pub fn new(dir: &Path, name: &str) -> TestCa {
        std::fs::create_dir_all(dir).unwrap_or_else(|e| fail("directory", e));
        let mut params = CertificateParams::new(Vec::<String>::new()).unwrap_or_else(|e| fail("params", e));
        params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        params.distinguished_name.push(DnType::CommonName, name);
        let key = KeyPair::generate().unwrap_or_else(|e| fail("key", e));
        let issuer = CertifiedIssuer::self_signed(params, key).unwrap_or_else(|e| fail("CA", e));
        let ca = TestCa { issuer, dir: dir.to_owned(), name: name.to_owned() };
        std::fs::write(ca.ca_file(), ca.issuer.pem()).unwrap_or_else(|e| fail("ca.pem", e));
        ca
    }

    /// The CA's certificate, PEM.
    pub fn ca_file(&self) -> PathBuf {
        self.dir.join(format!("{}-ca.pem", self.name))
    }

    /// Signs a server certificate for `names` (DNS names or IP addresses) and writes it and its
    /// key to `<stem>.pem` and `<stem>-key.pem`: their paths.
    pub fn issue(&self, names: &[&str], stem: &str) -> (PathBuf, PathBuf) {
        let names: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        let params = CertificateParams::new(names).unwrap_or_else(|e| fail("params", e));
        let key = KeyPair::generate().unwrap_or_else(|e| fail("key", e));
        let certificate = params.signed_by(&key, &self.issuer).unwrap_or_else(|e| fail("certificate", e));
        let (cert_file, key_file) = (self.dir.join(format!("{stem}.pem")), self.dir.join(format!("{stem}-key.pem")));
        // Key first: a reload that sees the new certificate must find its key already there.
        std::fs::write(&key_file, key.serialize_pem()).unwrap_or_else(|e| fail("key file", e));
        std::fs::write(&cert_file, certificate.pem()).unwrap_or_else(|e| fail("certificate file", e));
        (cert_file, key_file)
    }
}
