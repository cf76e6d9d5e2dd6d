package security
