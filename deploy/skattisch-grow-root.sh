#!/bin/sh
# Grow the root partition and its file system to the end of the SD card (the image is 2.7 GB,
# the card 16 or 32 GB). Run at each boot by skattisch-grow-root.service, installed by
# deploy/build-image.sh; after the first boot there is nothing left to grow and it says so.
#
#   skattisch-grow-root            grow the partition mounted at / and its ext4 file system
#
# growpart (Debian's cloud-guest-utils) moves the partition's end in the table and tells the
# kernel; resize2fs then grows the mounted ext4 online. resize2fs runs even when the partition
# was already grown, so a boot that stopped between the two finishes the job.
set -eu

root=$(findmnt -n -o SOURCE /)
part=$(basename "$(readlink -f "$root")")
[ -e "/sys/class/block/$part/partition" ] || { echo "skattisch-grow-root: / is on $root, not a partition: nothing to grow"; exit 0; }
number=$(cat "/sys/class/block/$part/partition")
disk=/dev/$(basename "$(readlink -f "/sys/class/block/$part/..")")

status=0
growpart "$disk" "$number" || status=$?
case $status in
    0) ;;
    1) echo "skattisch-grow-root: partition $number of $disk already fills the card" ;;
    *) echo "skattisch-grow-root: growpart $disk $number failed ($status)"; exit 1 ;;
esac
resize2fs "/dev/$part"
echo "skattisch-grow-root: / ($part) holds $(df -B1M --output=size / | tail -1 | tr -d ' ') MiB"
