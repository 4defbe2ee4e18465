"""RSA (placeholder)."""
