# Tcl's utf-8 encoding over utf8cert-protocol 2 (harness/PROTOCOL.md), one per MODE:
#
#   tclsh tcl_codecs.tcl MODE
#
#   convertfrom  replace: encoding convertfrom utf-8 (it never refuses: Tcl 8.6 has no strict
#                profile, so it is judged as a replacing decoder, whatever it puts in)
#   convertto    encode: encoding convertto utf-8
#   --version    prints the Tcl version and exits
#
# Tcl 8.6 strings are UTF-16 inside (a supplementary character is two chars), and the handshake
# says so (strings=utf-16). Text leaves as the UTF-16 of `encoding convertto unicode`, a pair
# joined into the character it encodes, a lone surrogate kept.
set EMPTY -

proc bytes_of {field} {
    if {$field eq $::EMPTY} { return "" }
    return [binary decode hex $field]
}

proc hex_of_bytes {data} {
    if {$data eq ""} { return $::EMPTY }
    return [binary encode hex $data]
}

proc hex_of_text {text} {
    binary scan [encoding convertto unicode $text] tu* units
    set out ""
    for {set i 0} {$i < [llength $units]} {incr i} {
        set value [lindex $units $i]
        set next [lindex $units [expr {$i + 1}]]
        if {$value >= 0xD800 && $value <= 0xDBFF && $next ne "" && $next >= 0xDC00 && $next <= 0xDFFF} {
            set value [expr {0x10000 + (($value - 0xD800) << 10) + ($next - 0xDC00)}]
            incr i
        }
        append out [format %08x $value]
    }
    if {$out eq ""} { return $::EMPTY }
    return $out
}

# The string of these code points, a supplementary one as its surrogate pair.
proc text_of {field} {
    set text ""
    if {$field eq $::EMPTY} { return $text }
    foreach {hex} [regexp -all -inline {.{8}} $field] {
        set value [expr {"0x$hex"}]
        if {$value > 0xFFFF} {
            set value [expr {$value - 0x10000}]
            append text [format %c [expr {0xD800 + ($value >> 10)}]]
            append text [format %c [expr {0xDC00 + ($value & 0x3FF)}]]
        } else {
            append text [format %c $value]
        }
    }
    return $text
}

proc answer {mode line} {
    set fields [split $line " "]
    set operation [lindex $fields 0]
    set field [lindex $fields 1]
    if {$field eq ""} { set field $::EMPTY }
    switch -- "$mode $operation" {
        "convertfrom replace" {
            return "ok [hex_of_text [encoding convertfrom utf-8 [bytes_of $field]]]"
        }
        "convertto encode" {
            return "ok [hex_of_bytes [encoding convertto utf-8 [text_of $field]]]"
        }
    }
    return "crash unknown request $operation"
}

array set capabilities {convertfrom replace convertto encode}
set mode [lindex $argv 0]
if {$mode eq "--version"} {
    puts "Tcl [info patchlevel]"
    exit 0
}
if {![info exists capabilities($mode)]} {
    puts stderr "usage: tclsh tcl_codecs.tcl MODE (convertfrom, convertto)"
    exit 2
}
fconfigure stdout -translation lf -buffering line
fconfigure stdin -translation auto
puts "utf8cert-protocol 2 $capabilities($mode) strings=utf-16"
while {[gets stdin line] >= 0} {
    set space [string first " " $line]
    set id [string range $line 0 [expr {$space - 1}]]
    if {[catch {answer $mode [string range $line [expr {$space + 1}] end]} reply]} {
        set reply "crash [regsub -all {\s+} $reply " "]"
    }
    puts "$id $reply"
}
