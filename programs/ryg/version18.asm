; RYG (first series) version 18: selects the version-specific code in the common sources
VERSION = 18
