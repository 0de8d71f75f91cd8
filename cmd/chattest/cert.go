package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// certValidity is how long a certificate made at start is valid.
const certValidity = 365 * 24 * time.Hour

// The files of a data directory that keep the certificate and its key.
const (
	certFileName = "cert.pem"
	keyFileName  = "cert-key.pem"
)

// keptCertificate returns the certificate kept in the data directory dir
// and its PEM, so that clients that trust or pin it keep doing so across
// restarts. It makes one (selfSigned) and writes it there, its key
// readable by the owner only, when there is none yet, or when the one kept
// expires within a day or does not name every host of names and ips (a
// -listen-any start on another network).
func keptCertificate(dir string, names []string, ips []net.IP) (tls.Certificate, []byte, error) {
	certPath, keyPath := filepath.Join(dir, certFileName), filepath.Join(dir, keyFileName)
	certPEM, certErr := os.ReadFile(certPath)
	keyPEM, keyErr := os.ReadFile(keyPath)
	if certErr == nil && keyErr == nil {
		if cert, err := tls.X509KeyPair(certPEM, keyPEM); err == nil && covers(cert.Leaf, names, ips) {
			// The owner's only, even when copied in with other permissions
			// (a link to a key kept elsewhere is left as it is).
			if fi, err := os.Lstat(keyPath); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() != 0o600 {
				if err := os.Chmod(keyPath, 0o600); err != nil {
					return tls.Certificate{}, nil, fmt.Errorf("-data: %w", err)
				}
			}
			return cert, certPEM, nil
		}
	}
	cert, certPEM, keyPEM, err := selfSigned(names, ips)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("-data: %w", err)
	}
	// The key first: a certificate kept is never without its key.
	if err := replaceFile(keyPath, keyPEM, 0o600); err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("-data: keeping the certificate's key: %w", err)
	}
	if err := replaceFile(certPath, certPEM, 0o644); err != nil {
		return tls.Certificate{}, nil, fmt.Errorf("-data: keeping the certificate: %w", err)
	}
	return cert, certPEM, nil
}

// covers reports whether the certificate c is valid for a day more at
// least, for localhost, the loopback addresses, names and ips.
func covers(c *x509.Certificate, names []string, ips []net.IP) bool {
	if c == nil || time.Now().Add(24*time.Hour).After(c.NotAfter) {
		return false
	}
	hosts := append([]string{"localhost", "127.0.0.1", "::1"}, names...)
	for _, ip := range ips {
		hosts = append(hosts, ip.String())
	}
	for _, h := range hosts {
		if h != "" && c.VerifyHostname(h) != nil {
			return false
		}
	}
	return true
}

// replaceFile writes b to the file path with the permissions perm,
// replacing what was there: it writes a new file beside it, created
// exclusively, and renames it to path, so that a symbolic link at path is
// replaced rather than followed, and a crash leaves the old file or the
// new one, never half of one.
func replaceFile(path string, b []byte, perm os.FileMode) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*") // 0600, exclusively
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil && perm != 0o600 {
		err = f.Chmod(perm)
	}
	if err = errors.Join(err, f.Close()); err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// writeNew writes b to the file path, which it creates, readable by its
// owner only: it fails when anything exists at path, a symbolic link
// included, so that nothing planted there can redirect the write.
func writeNew(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// selfSigned makes a certificate for localhost, 127.0.0.1, ::1 and the
// given extra names and addresses, valid from an hour ago for
// certValidity, and returns it with the PEM of the certificate and of its
// key.
func selfSigned(names []string, ips []net.IP) (cert tls.Certificate, certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return tls.Certificate{}, nil, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "chattest", Organization: []string{"chattest"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(certValidity),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
	}
	for _, n := range names {
		if n != "" && !slices.Contains(tmpl.DNSNames, n) {
			tmpl.DNSNames = append(tmpl.DNSNames, n)
		}
	}
	for _, ip := range ips {
		if !slices.ContainsFunc(tmpl.IPAddresses, ip.Equal) {
			tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, nil, nil, err
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return tls.Certificate{}, nil, nil, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return tls.Certificate{}, nil, nil, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf},
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), nil
}

// machineAddrs returns the machine's host name (if it has one) and the
// addresses of its network interfaces other than link-local ones, by
// which other machines may reach it.
func machineAddrs() (names []string, ips []net.IP) {
	if h, err := os.Hostname(); err == nil && h != "" {
		names = append(names, h)
	}
	addrs, _ := net.InterfaceAddrs() // none: the certificate names the loopback addresses only
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLinkLocalUnicast() && !n.IP.IsLoopback() {
			ips = append(ips, n.IP)
		}
	}
	return names, ips
}
