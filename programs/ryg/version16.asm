; RYG (first series) version 16: selects the version-specific code in the common sources
VERSION = 16
