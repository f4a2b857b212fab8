; RYG3 version 10: selects the version-specific code in the common sources
VERSION = 10
