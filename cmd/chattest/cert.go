package main

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"slices"
	"time"
)

// selfSigned makes a certificate for localhost, 127.0.0.1, ::1 and the
// given extra names and addresses, valid from an hour ago for 30 days, and
// returns it with its PEM.
func selfSigned(names []string, ips []net.IP) (tls.Certificate, []byte, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := time.Now()
	tmpl := &x509.Certificate{
		SerialNumber:          serial,
		Subject:               pkix.Name{CommonName: "chattest", Organization: []string{"chattest"}},
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(30 * 24 * time.Hour),
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
		return tls.Certificate{}, nil, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), nil
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
