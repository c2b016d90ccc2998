#!/usr/bin/env python3
"""Asks the CLIPBOARD owner for TARGETS and leaves before the answer comes.

This is what a GTK 4 program does when it exits right after a copy: its display watches the
clipboard (XFixes), asks the new owner for TARGETS as soon as the owner changes, and the
process ends before the owner has written the answer on the requestor's window. An owner
that lets Xlib's default error handler see the BadWindow that follows exits, and the
clipboard is empty.

Usage: vanishing-requestor.py DISPLAY
"""
import ctypes
import sys

x11 = ctypes.CDLL("libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
x11.XDefaultRootWindow.restype = ctypes.c_ulong
x11.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
x11.XCreateSimpleWindow.restype = ctypes.c_ulong
x11.XCreateSimpleWindow.argtypes = [
    ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_int, ctypes.c_uint, ctypes.c_uint,
    ctypes.c_uint, ctypes.c_ulong, ctypes.c_ulong]
x11.XInternAtom.restype = ctypes.c_ulong
x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
x11.XConvertSelection.argtypes = [
    ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
x11.XCloseDisplay.argtypes = [ctypes.c_void_p]

display = x11.XOpenDisplay(sys.argv[1].encode())
if not display:
    sys.exit("cannot open display " + sys.argv[1])
window = x11.XCreateSimpleWindow(display, x11.XDefaultRootWindow(display), 0, 0, 1, 1, 0, 0, 0)
clipboard = x11.XInternAtom(display, b"CLIPBOARD", 0)
targets = x11.XInternAtom(display, b"TARGETS", 0)
x11.XConvertSelection(display, clipboard, targets, targets, window, 0)
# Closing flushes the request, then the server destroys the window with the connection.
x11.XCloseDisplay(display)
