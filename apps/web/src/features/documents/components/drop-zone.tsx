import CloudUploadOutlined from '@mui/icons-material/CloudUploadOutlined';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useEffectEvent, useRef, useState } from 'react';

const carriesFiles = (event: DragEvent) => Array.from(event.dataTransfer?.types ?? []).includes('Files');

/**
 * Files dragged over the page: while they are, an overlay says where they will go; dropped, they
 * are handed to `onFiles`. Listens on the window, so the whole page is the target; other drags
 * (a selected text) are left alone.
 */
export function PageDropZone({ folderName, onFiles, disabled = false }: { folderName: string; onFiles: (files: File[]) => void; disabled?: boolean }) {
  const [dragging, setDragging] = useState(false);
  // dragenter/dragleave fire for each element crossed: the overlay stays until the count falls back to 0.
  const depth = useRef(0);
  const drop = useEffectEvent((files: File[]) => onFiles(files));
  const isDisabled = useEffectEvent(() => disabled);

  useEffect(() => {
    const enter = (event: DragEvent) => {
      if (!carriesFiles(event) || isDisabled()) return;
      event.preventDefault();
      depth.current += 1;
      setDragging(true);
    };
    const over = (event: DragEvent) => {
      if (!carriesFiles(event) || isDisabled()) return;
      // Without it the browser opens the file instead of dropping it here.
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    };
    const leave = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      depth.current = Math.max(0, depth.current - 1);
      if (depth.current === 0) setDragging(false);
    };
    const dropped = (event: DragEvent) => {
      if (!carriesFiles(event)) return;
      event.preventDefault();
      depth.current = 0;
      setDragging(false);
      const files = Array.from(event.dataTransfer?.files ?? []);
      if (files.length > 0 && !isDisabled()) drop(files);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', dropped);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', dropped);
    };
  }, []);

  if (!dragging) return null;
  return (
    <Box
      data-testid="ged-drop-zone"
      sx={{
        position: 'fixed',
        inset: 0,
        zIndex: (theme) => theme.zIndex.modal + 1,
        display: 'grid',
        placeItems: 'center',
        p: 2,
        bgcolor: 'rgba(25, 118, 210, 0.12)',
        pointerEvents: 'none',
      }}
    >
      <Box
        sx={{
          position: 'absolute',
          inset: { xs: 8, sm: 16 },
          border: 3,
          borderStyle: 'dashed',
          borderColor: 'primary.main',
          borderRadius: 2,
        }}
      />
      <Box sx={{ display: 'grid', justifyItems: 'center', gap: 1, bgcolor: 'background.paper', borderRadius: 2, boxShadow: 6, px: 4, py: 3, textAlign: 'center', maxWidth: 420 }}>
        <CloudUploadOutlined color="primary" sx={{ fontSize: 48 }} aria-hidden />
        <Typography variant="h6" component="p">
          Déposez vos fichiers ici
        </Typography>
        <Typography color="textSecondary" sx={{ overflowWrap: 'anywhere' }}>
          Ils seront ajoutés à « {folderName} ».
        </Typography>
      </Box>
    </Box>
  );
}
