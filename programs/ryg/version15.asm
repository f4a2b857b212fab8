; RYG (first series) version 15: selects the version-specific code in the common sources
VERSION = 15
