//go:build !unix

package main

// oNoFollow makes opening a symbolic link fail, where the system has it;
// elsewhere the import checks the path with os.Lstat first.
const oNoFollow = 0
